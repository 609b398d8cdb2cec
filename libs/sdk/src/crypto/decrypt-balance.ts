import { CryptoError, formatAmount } from '@cts/crypto';
import { type BalanceEntry } from '../client/types/accounts';
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

/** A balance entry of `balances({ include: 'ciphertext' })`, as the API returns it. */
export type BalanceCiphertexts = BalanceEntry;

/** The ciphertext of an entry, with its AE copy: what opens balances of any size. */
export function ciphertextsOf(entry: BalanceCiphertexts): {
  ciphertext: string;
  decryptableBalance?: string;
} {
  if (entry.ciphertext === undefined) {
    throw new CryptoError(
      'malformed_input',
      `the ${entry.asset} balance entry has no ciphertext: ask for balances({ include: 'ciphertext' })`,
    );
  }
  return { ciphertext: entry.ciphertext, decryptableBalance: entry.decryptable_balance };
}

/**
 * Decrypts an available balance to a decimal string: pass the balance entry as returned by
 * `balances({ include: 'ciphertext' })` (any size), or its `ciphertext` and asset (up to
 * 4,294,967,295 base units unless `decryptableBalance` is given too).
 */
export function decryptBalance(decryptionKey: string, entry: BalanceCiphertexts): string;
export function decryptBalance(
  decryptionKey: string,
  ciphertextBase64: string,
  asset: string,
  options?: DecryptBalanceOptions,
): string;
export function decryptBalance(
  decryptionKey: string,
  entryOrCiphertext: BalanceCiphertexts | string,
  assetOfCiphertext?: string,
  options: DecryptBalanceOptions = {},
): string {
  const { asset, ciphertext, decryptableBalance } =
    typeof entryOrCiphertext === 'string'
      ? { asset: assetOfCiphertext ?? '', ciphertext: entryOrCiphertext, ...options }
      : { asset: entryOrCiphertext.asset, ...ciphertextsOf(entryOrCiphertext) };
  const decimals = assetDecimals(asset);
  const elgamal = decodeElGamalCiphertext(ciphertext);
  const amount = withDecryptionKey(decryptionKey, (keys) =>
    decryptBalanceBaseUnits(keys, elgamal, decryptableBalance),
  );
  return formatAmount(amount, decimals);
}
