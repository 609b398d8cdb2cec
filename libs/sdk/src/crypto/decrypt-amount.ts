import { formatAmount } from '@cts/crypto';
import { assetDecimals } from './assets';
import { openAeCiphertext } from './ciphertexts';
import { withDecryptionKey } from './decryption-key';

/** Opens an `encrypted_amount` (transfers, pending approvals, per-key totals) to a decimal string. */
export function decryptAmount(decryptionKey: string, encryptedAmountBase64: string, asset: string): string {
  const decimals = assetDecimals(asset);
  const amount = withDecryptionKey(decryptionKey, (keys) =>
    openAeCiphertext(keys.aeKey, encryptedAmountBase64),
  );
  return formatAmount(amount, decimals);
}
