import { type Environment } from '@cts/contracts';
import { address } from '@solana/kit';
import {
  SIGNING_SEED_BYTES,
  U64_MAX,
  decodeBase64,
  encodeBase64,
  encodeDecryptionKey,
  zk,
  type AccountKeyMaterial,
  type SealingKey,
} from '@cts/crypto';
import { randomBytes } from '@noble/hashes/utils.js';
import { generateConfidentialKeys, type AccountPublicKeys } from './account-keys';
import { CustodyError } from './custody-error';
import { type CustodyKeyRepository } from './custody-key.repository';
import { sealKeys, unsealKeys, wipeKeys } from './sealed-keys';

export interface ProvisionedAccount {
  /** Shown once to the account holder, never stored: opens balances and amounts in every environment. */
  decryptionKey: string;
  publicKeys: Partial<Record<Environment, AccountPublicKeys>>;
}

/**
 * The sealed key store. WARNING: no method returns a plaintext amount — callers get yes/no answers
 * and ciphertexts only the account holder can open. Keys are unsealed per call and wiped after.
 */
export class Custody {
  constructor(
    private readonly repository: CustodyKeyRepository,
    private readonly masterKey: SealingKey,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * One ElGamal/AE key pair for all `environments` (so one `decryption_key` reads them all), one
   * signing seed per environment. Run inside one DB transaction: a half-provisioned account would
   * never get its decryption key shown.
   */
  async provisionAccount(
    accountId: string,
    environments: readonly Environment[],
  ): Promise<ProvisionedAccount> {
    if (environments.length === 0 || new Set(environments).size !== environments.length) {
      throw new CustodyError('invalid_environments', 'provision each environment exactly once');
    }
    const confidential = generateConfidentialKeys();
    const publicKeys: ProvisionedAccount['publicKeys'] = {};
    try {
      for (const environment of environments) {
        const signingSeed = randomBytes(SIGNING_SEED_BYTES);
        const { sealedKeys, ...publicParts } = sealKeys(this.masterKey, accountId, environment, {
          signingSeed,
          ...confidential,
        });
        signingSeed.fill(0);
        await this.repository.save({
          accountId,
          environment,
          ...publicParts,
          sealedKeys,
          createdAt: this.now(),
        });
        publicKeys[environment] = publicParts;
      }
      return { decryptionKey: encodeDecryptionKey(confidential), publicKeys };
    } finally {
      confidential.elgamalSecret.fill(0);
      confidential.aeKey.fill(0);
    }
  }

  async publicKeys(
    accountId: string,
    environment: Environment,
  ): Promise<AccountPublicKeys & { createdAt: Date }> {
    const { ownerAddress, elgamalPubkey, createdAt } = await this.record(accountId, environment);
    return { ownerAddress: address(ownerAddress), elgamalPubkey, createdAt };
  }

  /**
   * Unseals the account's keys for one ledger operation. WARNING: the key bytes are zeroed when
   * `operation` settles; it must not keep them (or signers built from them) for later.
   */
  async withKeys<T>(
    accountId: string,
    environment: Environment,
    operation: (keys: AccountKeyMaterial) => Promise<T> | T,
  ): Promise<T> {
    const keys = unsealKeys(this.masterKey, await this.record(accountId, environment));
    try {
      return await operation(keys);
    } finally {
      wipeKeys(keys);
    }
  }

  /** Whether the ledger's decryptable available balance (AE ciphertext) covers `amount`. */
  async canSend(
    accountId: string,
    environment: Environment,
    amount: bigint,
    decryptableAvailableBalance: Uint8Array,
  ): Promise<boolean> {
    assertAmount(amount);
    return this.withKeys(
      accountId,
      environment,
      (keys) => openAe(keys.aeKey, decryptableAvailableBalance) >= amount,
    );
  }

  async hasNonZeroBalance(
    accountId: string,
    environment: Environment,
    decryptableAvailableBalance: Uint8Array,
  ): Promise<boolean> {
    return this.withKeys(
      accountId,
      environment,
      (keys) => openAe(keys.aeKey, decryptableAvailableBalance) > 0n,
    );
  }

  /** `encrypted_amount`: base64 AE ciphertext that only this account's `decryption_key` opens. */
  async encryptAmountFor(accountId: string, environment: Environment, amount: bigint): Promise<string> {
    assertAmount(amount);
    return this.withKeys(accountId, environment, (keys) => sealAe(keys.aeKey, amount));
  }

  /**
   * Running totals (e.g. `encrypted_usdc_total` per API key): adds inside custody so the sum stays
   * exact without anyone outside seeing it. `encryptedTotal` undefined starts from zero.
   */
  async addToEncryptedTotal(
    accountId: string,
    environment: Environment,
    encryptedTotal: string | undefined,
    amount: bigint,
  ): Promise<string> {
    assertAmount(amount);
    return this.withKeys(accountId, environment, (keys) => {
      const current = encryptedTotal === undefined ? 0n : openAe(keys.aeKey, decodeAe(encryptedTotal));
      if (current + amount > U64_MAX) {
        throw new CustodyError('invalid_amount', 'encrypted total would exceed u64');
      }
      return sealAe(keys.aeKey, current + amount);
    });
  }

  private async record(accountId: string, environment: Environment) {
    const record = await this.repository.find(accountId, environment);
    if (!record) {
      throw new CustodyError('keys_not_found', `no custody keys for ${accountId} (${environment})`);
    }
    return record;
  }
}

function assertAmount(amount: bigint): void {
  if (amount < 0n || amount > U64_MAX) {
    throw new CustodyError('invalid_amount', 'amount must be a u64 in base units');
  }
}

function decodeAe(base64: string): Uint8Array {
  const bytes = decodeBase64(base64);
  if (!bytes) {
    throw new CustodyError('balance_unreadable', 'encrypted amount is not base64');
  }
  return bytes;
}

function openAe(aeKeyBytes: Uint8Array, ciphertextBytes: Uint8Array): bigint {
  const ciphertext = zk.AeCiphertext.fromBytes(ciphertextBytes);
  if (!ciphertext) {
    throw new CustodyError('balance_unreadable', 'not an AE ciphertext');
  }
  const aeKey = zk.AeKey.fromBytes(aeKeyBytes);
  try {
    return aeKey.decrypt(ciphertext);
  } catch {
    throw new CustodyError('balance_unreadable', 'AE ciphertext does not open with this account key');
  } finally {
    aeKey.free();
    ciphertext.free();
  }
}

function sealAe(aeKeyBytes: Uint8Array, amount: bigint): string {
  const aeKey = zk.AeKey.fromBytes(aeKeyBytes);
  try {
    const ciphertext = aeKey.encrypt(amount);
    const bytes = ciphertext.toBytes();
    ciphertext.free();
    return encodeBase64(bytes);
  } finally {
    aeKey.free();
  }
}
