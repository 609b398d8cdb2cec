import { decryptMemo, deriveElGamalPubkey, encodeBase64, generateElGamalSecret } from '@cts/crypto';

/**
 * Runs `work` with a one-time ElGamal key of this request: a service encrypts a secret to
 * `recipientKey` (the new account's `decryption_key`), `open` decrypts it here, so no topic and no
 * stored reply ever holds it in the clear. The key is wiped whatever happens.
 */
export async function withOneTimeKey<T>(
  work: (recipientKey: string, open: (encrypted: string) => string) => Promise<T>,
): Promise<T> {
  const oneTimeSecret = generateElGamalSecret();
  try {
    return await work(encodeBase64(deriveElGamalPubkey(oneTimeSecret)), (encrypted) =>
      decryptMemo(oneTimeSecret, encrypted),
    );
  } finally {
    oneTimeSecret.fill(0);
  }
}
