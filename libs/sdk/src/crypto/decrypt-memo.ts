import { decryptMemo as decryptMemoWithSecret } from '@cts/crypto';
import { withDecryptionKey } from './decryption-key';

/** Opens a transfer's encrypted memo (the copy addressed to this account). */
export function decryptMemo(decryptionKey: string, encryptedMemo: string): string {
  return withDecryptionKey(decryptionKey, (keys) => decryptMemoWithSecret(keys.elgamalSecret, encryptedMemo));
}
