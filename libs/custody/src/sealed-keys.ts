import { type Environment } from '@cts/contracts';
import {
  AE_KEY_BYTES,
  CryptoError,
  ELGAMAL_SECRET_BYTES,
  SIGNING_SEED_BYTES,
  seal,
  unseal,
  type AccountKeyMaterial,
  type SealingKey,
} from '@cts/crypto';
import { derivePublicKeys, type AccountPublicKeys } from './account-keys';
import { type CustodyKeyRecord } from './custody-key.repository';

// Plaintext layout: version(1) ‖ signingSeed(32) ‖ elgamalSecret(32) ‖ aeKey(16).
const LAYOUT_VERSION = 1;
const SEALED_BYTES = 1 + SIGNING_SEED_BYTES + ELGAMAL_SECRET_BYTES + AE_KEY_BYTES;

export type SealedKeys = AccountPublicKeys & { sealedKeys: string };
type SealedRow = Pick<
  CustodyKeyRecord,
  'accountId' | 'environment' | 'ownerAddress' | 'elgamalPubkey' | 'sealedKeys'
>;

// The public columns are authenticated too: a row whose owner address or ElGamal key was edited,
// or whose blob was copied from another row or environment, does not open.
function associatedData(
  accountId: string,
  environment: Environment,
  publicKeys: { ownerAddress: string; elgamalPubkey: string },
): string {
  return JSON.stringify([
    'cts.custody.keys.v1',
    accountId,
    environment,
    publicKeys.ownerAddress,
    publicKeys.elgamalPubkey,
  ]);
}

function serialize(keys: AccountKeyMaterial): Uint8Array {
  if (keys.signingSeed.length !== SIGNING_SEED_BYTES || keys.elgamalSecret.length !== ELGAMAL_SECRET_BYTES) {
    throw new CryptoError('invalid_key', 'signing seed and ElGamal secret must be 32 bytes each');
  }
  if (keys.aeKey.length !== AE_KEY_BYTES) {
    throw new CryptoError('invalid_key', `AE key must be ${AE_KEY_BYTES} bytes`);
  }
  const out = new Uint8Array(SEALED_BYTES);
  out[0] = LAYOUT_VERSION;
  out.set(keys.signingSeed, 1);
  out.set(keys.elgamalSecret, 1 + SIGNING_SEED_BYTES);
  out.set(keys.aeKey, 1 + SIGNING_SEED_BYTES + ELGAMAL_SECRET_BYTES);
  return out;
}

function deserialize(bytes: Uint8Array): AccountKeyMaterial {
  if (bytes.length !== SEALED_BYTES || bytes[0] !== LAYOUT_VERSION) {
    throw new CryptoError('unsupported_version', 'unknown custody key layout');
  }
  const elgamalStart = 1 + SIGNING_SEED_BYTES;
  const aeStart = elgamalStart + ELGAMAL_SECRET_BYTES;
  return {
    signingSeed: bytes.slice(1, elgamalStart),
    elgamalSecret: bytes.slice(elgamalStart, aeStart),
    aeKey: bytes.slice(aeStart),
  };
}

export function sealKeys(
  masterKey: SealingKey,
  accountId: string,
  environment: Environment,
  keys: AccountKeyMaterial,
): SealedKeys {
  const publicKeys = derivePublicKeys(keys);
  const plaintext = serialize(keys);
  try {
    return {
      ...publicKeys,
      sealedKeys: seal(masterKey, plaintext, associatedData(accountId, environment, publicKeys)),
    };
  } finally {
    plaintext.fill(0);
  }
}

/** Throws CryptoError `authentication_failed` when the row was altered or the master key is wrong. */
export function unsealKeys(masterKey: SealingKey, row: SealedRow): AccountKeyMaterial {
  const plaintext = unseal(masterKey, row.sealedKeys, associatedData(row.accountId, row.environment, row));
  try {
    return deserialize(plaintext);
  } finally {
    plaintext.fill(0);
  }
}

export function wipeKeys(keys: AccountKeyMaterial): void {
  keys.signingSeed.fill(0);
  keys.elgamalSecret.fill(0);
  keys.aeKey.fill(0);
}
