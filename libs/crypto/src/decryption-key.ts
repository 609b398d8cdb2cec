import { sha256 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';
import { CryptoError } from './crypto-error';
import { bytesEqual, concatBytes, utf8Encode } from './encoding';
import { ELGAMAL_SECRET_BYTES, elgamalSecretScalar } from './elgamal';
import { AE_KEY_BYTES, type DecryptionKeyMaterial } from './key-material';

// dk1_<base58(elgamalSecret(32) ‖ aeKey(16) ‖ checksum(4))>: base58 so it survives copy-paste and
// double-click selection; the checksum turns a typo into a clear error instead of wrong amounts.
const PREFIX = 'dk1_';
const CHECKSUM_BYTES = 4;
const PAYLOAD_BYTES = ELGAMAL_SECRET_BYTES + AE_KEY_BYTES;
const CHECKSUM_DOMAIN = utf8Encode('cts.decryption-key.v1');

function checksum(payload: Uint8Array): Uint8Array {
  return sha256(concatBytes(CHECKSUM_DOMAIN, payload)).subarray(0, CHECKSUM_BYTES);
}

export function encodeDecryptionKey(keys: DecryptionKeyMaterial): string {
  elgamalSecretScalar(keys.elgamalSecret);
  if (keys.aeKey.length !== AE_KEY_BYTES) {
    throw new CryptoError('invalid_key', `AE key must be ${AE_KEY_BYTES} bytes, got ${keys.aeKey.length}`);
  }
  const payload = concatBytes(keys.elgamalSecret, keys.aeKey);
  return PREFIX + base58.encode(concatBytes(payload, checksum(payload)));
}

function decodeBase58(text: string): Uint8Array | undefined {
  try {
    return base58.decode(text);
  } catch {
    return undefined;
  }
}

/** Throws CryptoError `unsupported_version`, `malformed_input`, `checksum_mismatch` or `invalid_key`. */
export function parseDecryptionKey(decryptionKey: string): DecryptionKeyMaterial {
  const text = decryptionKey.trim();
  if (!text.startsWith(PREFIX)) {
    if (/^dk\d+_/.test(text)) {
      throw new CryptoError('unsupported_version', 'unsupported decryption key version');
    }
    throw new CryptoError('malformed_input', 'not a decryption key (expected dk1_…)');
  }
  const bytes = decodeBase58(text.slice(PREFIX.length));
  if (!bytes || bytes.length !== PAYLOAD_BYTES + CHECKSUM_BYTES) {
    throw new CryptoError('malformed_input', 'decryption key is damaged (wrong characters or length)');
  }
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  if (!bytesEqual(checksum(payload), bytes.subarray(PAYLOAD_BYTES))) {
    throw new CryptoError('checksum_mismatch', 'decryption key checksum does not match (typo?)');
  }
  const elgamalSecret = payload.slice(0, ELGAMAL_SECRET_BYTES);
  elgamalSecretScalar(elgamalSecret);
  return { elgamalSecret, aeKey: payload.slice(ELGAMAL_SECRET_BYTES) };
}
