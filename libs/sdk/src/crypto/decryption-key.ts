import { parseDecryptionKey, type DecryptionKeyMaterial } from '@cts/crypto';

/** Parses the `decryption_key` for one call and zeroes the parsed bytes afterwards. */
export function withDecryptionKey<T>(decryptionKey: string, use: (keys: DecryptionKeyMaterial) => T): T {
  const keys = parseDecryptionKey(decryptionKey);
  try {
    return use(keys);
  } finally {
    keys.elgamalSecret.fill(0);
    keys.aeKey.fill(0);
  }
}

/** Checks a `decryption_key`'s format and checksum locally; throws CryptoError naming what is wrong. */
export function checkDecryptionKey(decryptionKey: string): void {
  withDecryptionKey(decryptionKey, () => undefined);
}
