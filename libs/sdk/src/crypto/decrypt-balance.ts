import { formatAmount } from '@cts/crypto';
import { assetDecimals } from './assets';
import { decodeElGamalCiphertext, decryptBalanceBaseUnits } from './ciphertexts';
import { withDecryptionKey } from './decryption-key';

export interface DecryptBalanceOptions {
  /**
   * Base64 AE ciphertext of the same balance (the ledger's decryptable available balance). Needed
   * for balances above 4,294,967,295 base units; checked against the ElGamal ciphertext.
   */
  decryptableBalance?: string;
}

/** Decrypts an available-balance ciphertext (`ciphertext` of a balance entry) to a decimal string. */
export function decryptBalance(
  decryptionKey: string,
  ciphertextBase64: string,
  asset: string,
  options: DecryptBalanceOptions = {},
): string {
  const decimals = assetDecimals(asset);
  const ciphertext = decodeElGamalCiphertext(ciphertextBase64);
  const amount = withDecryptionKey(decryptionKey, (keys) =>
    decryptBalanceBaseUnits(keys, ciphertext, options.decryptableBalance),
  );
  return formatAmount(amount, decimals);
}
