import {
  CryptoError,
  ELGAMAL_CIPHERTEXT_BYTES,
  ciphertextEncrypts,
  decodeBase64,
  zk,
  type DecryptionKeyMaterial,
} from '@cts/crypto';

/** What zk-sdk's discrete log can recover: it gives up above u32 (≈ 4,294.97 USDC, 4.29 SOL). */
export const MAX_DISCRETE_LOG_AMOUNT = 2n ** 32n - 1n;

export function decodeElGamalCiphertext(base64: string): Uint8Array {
  const bytes = decodeBase64(base64);
  if (!bytes || bytes.length !== ELGAMAL_CIPHERTEXT_BYTES) {
    throw new CryptoError(
      'malformed_input',
      `balance ciphertext must be base64 of ${ELGAMAL_CIPHERTEXT_BYTES} bytes`,
    );
  }
  return bytes;
}

/** Opens an AE ciphertext (`encrypted_amount`, or the ledger's decryptable balance) with the AE key. */
export function openAeCiphertext(aeKeyBytes: Uint8Array, base64: string): bigint {
  const bytes = decodeBase64(base64);
  const ciphertext = bytes && zk.AeCiphertext.fromBytes(bytes);
  if (!ciphertext) {
    throw new CryptoError('malformed_input', 'encrypted amount is not a base64 AE ciphertext');
  }
  const aeKey = zk.AeKey.fromBytes(aeKeyBytes);
  try {
    return aeKey.decrypt(ciphertext);
  } catch {
    throw new CryptoError('authentication_failed', 'encrypted amount does not open with this decryption key');
  } finally {
    aeKey.free();
    ciphertext.free();
  }
}

function discreteLog(elgamalSecret: Uint8Array, ciphertextBytes: Uint8Array): bigint {
  const ciphertext = zk.ElGamalCiphertext.fromBytes(ciphertextBytes);
  if (!ciphertext) {
    throw new CryptoError('malformed_input', 'balance ciphertext is not two valid points');
  }
  const secret = zk.ElGamalSecretKey.fromBytes(elgamalSecret);
  try {
    return secret.decrypt(ciphertext);
  } catch {
    throw new CryptoError(
      'not_decryptable',
      `balance is not encrypted under this decryption key, or exceeds ${MAX_DISCRETE_LOG_AMOUNT} base units ` +
        '(pass the decryptable balance to read larger balances)',
    );
  } finally {
    secret.free();
    ciphertext.free();
  }
}

/**
 * The amount an ElGamal balance ciphertext encrypts, in base units. With `decryptableBalance` (the
 * AE copy the ledger keeps beside it) any u64 opens at once and is then checked against the ElGamal
 * ciphertext; without it, zk-sdk's discrete log (≈ 0.3 s) only reaches u32.
 */
export function decryptBalanceBaseUnits(
  keys: DecryptionKeyMaterial,
  ciphertext: Uint8Array,
  decryptableBalance?: string,
): bigint {
  if (decryptableBalance === undefined) {
    return discreteLog(keys.elgamalSecret, ciphertext);
  }
  const amount = openAeCiphertext(keys.aeKey, decryptableBalance);
  if (!ciphertextEncrypts(keys.elgamalSecret, ciphertext, amount)) {
    throw new CryptoError('not_decryptable', 'decryptable balance does not match the balance ciphertext');
  }
  return amount;
}
