import {
  U64_MAX,
  decodeBase64,
  generateSealingKey,
  parseDecryptionKey,
  parseSealingKey,
  zk,
  type AccountKeyMaterial,
} from '@cts/crypto';
import { Custody } from './custody';
import { InMemoryCustodyKeyRepository } from './in-memory-custody-key.repository';

const now = new Date('2026-03-01T12:00:00.000Z');

async function setup() {
  const repository = new InMemoryCustodyKeyRepository();
  const custody = new Custody(repository, parseSealingKey(generateSealingKey()), () => now);
  const provisioned = await custody.provisionAccount('acct_alice', ['test', 'live']);
  return { repository, custody, provisioned };
}

// What the ledger stores as decryptable_available_balance: the balance under the account's AE key.
function aeEncrypt(aeKey: Uint8Array, amount: bigint): Uint8Array {
  return zk.AeKey.fromBytes(aeKey).encrypt(amount).toBytes();
}

function aeOpen(aeKey: Uint8Array, base64: string): bigint {
  const ciphertext = zk.AeCiphertext.fromBytes(decodeBase64(base64) ?? new Uint8Array());
  if (!ciphertext) {
    throw new Error('not an AE ciphertext');
  }
  return zk.AeKey.fromBytes(aeKey).decrypt(ciphertext);
}

async function balanceOf(custody: Custody, amount: bigint, environment: 'test' | 'live' = 'test') {
  return custody.withKeys('acct_alice', environment, (keys) => aeEncrypt(keys.aeKey, amount));
}

describe('Custody.provisionAccount', () => {
  it('stores one sealed record per environment with its public keys and creation time', async () => {
    const { repository, provisioned } = await setup();
    for (const environment of ['test', 'live'] as const) {
      const record = await repository.find('acct_alice', environment);
      expect(record).toMatchObject({ accountId: 'acct_alice', environment, createdAt: now });
      expect(record?.sealedKeys).toMatch(/^s1\./);
      expect(record?.ownerAddress).toBe(provisioned.publicKeys[environment]?.ownerAddress);
    }
  });

  it('uses one decryption key for all environments but a separate signing key per environment', async () => {
    const { custody, provisioned } = await setup();
    const test = await custody.withKeys('acct_alice', 'test', (keys) => Uint8Array.from(keys.signingSeed));
    const live = await custody.withKeys('acct_alice', 'live', (keys) => Uint8Array.from(keys.signingSeed));
    expect(provisioned.publicKeys.test?.elgamalPubkey).toBe(provisioned.publicKeys.live?.elgamalPubkey);
    expect(provisioned.publicKeys.test?.ownerAddress).not.toBe(provisioned.publicKeys.live?.ownerAddress);
    expect(test).not.toEqual(live);
  });

  it('returns a decryption_key that holds exactly the custody ElGamal secret and AE key', async () => {
    const { custody, provisioned } = await setup();
    const parsed = parseDecryptionKey(provisioned.decryptionKey);
    const copy = await custody.withKeys('acct_alice', 'live', (keys) => ({
      elgamalSecret: Uint8Array.from(keys.elgamalSecret),
      aeKey: Uint8Array.from(keys.aeKey),
    }));
    expect(parsed).toEqual(copy);
  });

  it('refuses to provision an account twice (keys are never replaced)', async () => {
    const { custody } = await setup();
    await expect(custody.provisionAccount('acct_alice', ['test'])).rejects.toMatchObject({
      code: 'keys_already_exist',
    });
  });

  it('refuses an empty or repeated environment list rather than showing a key for nothing', async () => {
    const { custody } = await setup();
    await expect(custody.provisionAccount('acct_new', [])).rejects.toMatchObject({
      code: 'invalid_environments',
    });
    await expect(custody.provisionAccount('acct_new', ['test', 'test'])).rejects.toMatchObject({
      code: 'invalid_environments',
    });
  });

  it('serves public keys without unsealing', async () => {
    const { custody, provisioned } = await setup();
    expect(await custody.publicKeys('acct_alice', 'test')).toEqual({
      ...provisioned.publicKeys.test,
      createdAt: now,
    });
  });
});

describe('Custody.withKeys', () => {
  it('gives the operation the unsealed keys and wipes them afterwards', async () => {
    const { custody } = await setup();
    let seen: AccountKeyMaterial | undefined;
    await custody.withKeys('acct_alice', 'test', (keys) => {
      seen = keys;
      expect(keys.signingSeed.some((byte) => byte !== 0)).toBe(true);
    });
    expect(seen?.signingSeed.every((byte) => byte === 0)).toBe(true);
    expect(seen?.elgamalSecret.every((byte) => byte === 0)).toBe(true);
    expect(seen?.aeKey.every((byte) => byte === 0)).toBe(true);
  });

  it('wipes the keys when the operation fails, and passes the failure on', async () => {
    const { custody } = await setup();
    let seen: AccountKeyMaterial | undefined;
    await expect(
      custody.withKeys('acct_alice', 'test', (keys) => {
        seen = keys;
        return Promise.reject(new Error('ledger down'));
      }),
    ).rejects.toThrow('ledger down');
    expect(seen?.aeKey.every((byte) => byte === 0)).toBe(true);
  });

  it('fails with keys_not_found for an unknown account or environment', async () => {
    const { custody } = await setup();
    await expect(custody.withKeys('acct_bob', 'test', () => 1)).rejects.toMatchObject({
      code: 'keys_not_found',
    });
  });
});

describe('Custody balance questions', () => {
  it('answers whether a balance covers an amount, exactly at the boundary', async () => {
    const { custody } = await setup();
    const balance = await balanceOf(custody, 25_000_000n);
    expect(await custody.canSend('acct_alice', 'test', 25_000_000n, balance)).toBe(true);
    expect(await custody.canSend('acct_alice', 'test', 25_000_001n, balance)).toBe(false);
    expect(await custody.canSend('acct_alice', 'test', 1n, balance)).toBe(true);
  });

  it('handles balances far beyond the ElGamal discrete-log range', async () => {
    const { custody } = await setup();
    const balance = await balanceOf(custody, 10n ** 15n);
    expect(await custody.canSend('acct_alice', 'test', 10n ** 15n, balance)).toBe(true);
    expect(await custody.canSend('acct_alice', 'test', 10n ** 15n + 1n, balance)).toBe(false);
  });

  it('answers whether a balance is non-zero', async () => {
    const { custody } = await setup();
    expect(await custody.hasNonZeroBalance('acct_alice', 'test', await balanceOf(custody, 0n))).toBe(false);
    expect(await custody.hasNonZeroBalance('acct_alice', 'test', await balanceOf(custody, 1n))).toBe(true);
  });

  it("refuses another account's balance ciphertext instead of guessing", async () => {
    const { custody, repository } = await setup();
    const bobCustody = new Custody(repository, parseSealingKey(generateSealingKey()));
    await bobCustody.provisionAccount('acct_bob', ['test']);
    const bobBalance = await bobCustody.withKeys('acct_bob', 'test', (keys) => aeEncrypt(keys.aeKey, 5n));
    await expect(custody.canSend('acct_alice', 'test', 1n, bobBalance)).rejects.toMatchObject({
      code: 'balance_unreadable',
    });
    await expect(custody.hasNonZeroBalance('acct_alice', 'test', new Uint8Array(3))).rejects.toMatchObject({
      code: 'balance_unreadable',
    });
  });

  it('rejects amounts outside u64', async () => {
    const { custody } = await setup();
    const balance = await balanceOf(custody, 1n);
    await expect(custody.canSend('acct_alice', 'test', -1n, balance)).rejects.toMatchObject({
      code: 'invalid_amount',
    });
    await expect(custody.encryptAmountFor('acct_alice', 'test', U64_MAX + 1n)).rejects.toMatchObject({
      code: 'invalid_amount',
    });
  });
});

describe('Custody encrypted amounts', () => {
  it('encrypts an amount that the holder of the decryption_key opens', async () => {
    const { custody, provisioned } = await setup();
    const encrypted = await custody.encryptAmountFor('acct_alice', 'live', 12_345_678n);
    expect(encrypted).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(aeOpen(parseDecryptionKey(provisioned.decryptionKey).aeKey, encrypted)).toBe(12_345_678n);
  });

  it('encrypts the same amount differently each time', async () => {
    const { custody } = await setup();
    const a = await custody.encryptAmountFor('acct_alice', 'test', 5n);
    expect(await custody.encryptAmountFor('acct_alice', 'test', 5n)).not.toBe(a);
  });

  it('keeps a running total exact', async () => {
    const { custody, provisioned } = await setup();
    let total = await custody.addToEncryptedTotal('acct_alice', 'test', undefined, 1n);
    for (const amount of [999_999n, 10n ** 12n, 0n, 7n]) {
      total = await custody.addToEncryptedTotal('acct_alice', 'test', total, amount);
    }
    expect(aeOpen(parseDecryptionKey(provisioned.decryptionKey).aeKey, total)).toBe(
      1n + 999_999n + 10n ** 12n + 7n,
    );
  });

  it('refuses a total that would overflow u64 and a total that is not base64', async () => {
    const { custody } = await setup();
    const nearMax = await custody.encryptAmountFor('acct_alice', 'test', U64_MAX);
    await expect(custody.addToEncryptedTotal('acct_alice', 'test', nearMax, 1n)).rejects.toMatchObject({
      code: 'invalid_amount',
    });
    await expect(custody.addToEncryptedTotal('acct_alice', 'test', '%%%', 1n)).rejects.toMatchObject({
      code: 'balance_unreadable',
    });
  });
});
