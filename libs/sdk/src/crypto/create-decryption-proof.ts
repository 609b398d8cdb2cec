import {
  CryptoError,
  encodeDecryptionProofParam,
  formatAmount,
  subtractAmount,
  zk,
  type DecryptionKeyMaterial,
  type DecryptionProofWireEntry,
} from '@cts/crypto';
import { assetDecimals } from './assets';
import { decodeElGamalCiphertext, decryptBalanceBaseUnits } from './ciphertexts';
import { type BalanceCiphertexts, ciphertextsOf } from './decrypt-balance';
import { withDecryptionKey } from './decryption-key';

export interface DecryptionProofInput {
  asset: string;
  /** Base64 available-balance ciphertext from `GET /v1/accounts/me/balances?include=ciphertext`. */
  ciphertext: string;
  /** Base64 AE copy of the balance; needed above 4,294,967,295 base units (see `decryptBalance`). */
  decryptableBalance?: string;
}

// Fresh wasm objects per proof: zk-sdk consumes objects passed inside arrays, so none are shared.
function proveZero(elgamalSecret: Uint8Array, shifted: Uint8Array): Uint8Array {
  const ciphertext = zk.ElGamalCiphertext.fromBytes(shifted);
  if (!ciphertext) {
    throw new CryptoError('malformed_input', 'balance ciphertext is not two valid points');
  }
  const secret = zk.ElGamalSecretKey.fromBytes(elgamalSecret);
  const keypair = zk.ElGamalKeypair.fromSecretKey(secret);
  secret.free();
  try {
    const proof = new zk.ZeroCiphertextProofData(keypair, ciphertext);
    const bytes = proof.toBytes();
    proof.free();
    return bytes;
  } finally {
    keypair.free();
    ciphertext.free();
  }
}

function proveEntry(keys: DecryptionKeyMaterial, input: DecryptionProofInput): DecryptionProofWireEntry {
  const decimals = assetDecimals(input.asset);
  const ciphertext = decodeElGamalCiphertext(input.ciphertext);
  const amount = decryptBalanceBaseUnits(keys, ciphertext, input.decryptableBalance);
  const shifted = subtractAmount(ciphertext, amount);
  if (!shifted) {
    throw new CryptoError('malformed_input', 'balance ciphertext is not two valid points');
  }
  return {
    asset: input.asset,
    amount: formatAmount(amount, decimals),
    proof: proveZero(keys.elgamalSecret, shifted),
  };
}

const isApiEntry = (entry: DecryptionProofInput | BalanceCiphertexts): entry is BalanceCiphertexts =>
  'decryptable_balance' in entry || entry.ciphertext === undefined;

/**
 * Builds the `decryption_proof` for `GET /v1/accounts/me/balances`: decrypts each balance and proves
 * it in zero knowledge, so the service can show the amounts without ever holding the key. Takes the
 * entries of `balances({ include: 'ciphertext' })` as they are, or `{ asset, ciphertext,
 * decryptableBalance? }`.
 */
export function createDecryptionProof(
  decryptionKey: string,
  entries: readonly (DecryptionProofInput | BalanceCiphertexts)[],
): string {
  if (entries.length === 0) {
    throw new CryptoError('malformed_input', 'a decryption proof needs at least one balance');
  }
  return withDecryptionKey(decryptionKey, (keys) =>
    encodeDecryptionProofParam(
      entries.map((entry) =>
        proveEntry(keys, isApiEntry(entry) ? { asset: entry.asset, ...ciphertextsOf(entry) } : entry),
      ),
    ),
  );
}
