import { zk } from '@cts/crypto';
import { type AccountKeyMaterial, type LedgerAccountView } from '../ledger.port';

// Test support only (not exported from the package): what a key holder sees in a confidential account.

export function decryptWithAeKey(keys: AccountKeyMaterial, view: LedgerAccountView): bigint {
  if (!view.confidentialReady) {
    throw new Error(`${view.tokenAccount} is not a confidential account`);
  }
  const ciphertext = zk.AeCiphertext.fromBytes(view.decryptableAvailableBalance);
  const amount = ciphertext?.decrypt(zk.AeKey.fromBytes(keys.aeKey));
  if (amount === undefined) {
    throw new Error('AE decryption failed');
  }
  return amount;
}

/** Discrete log: slow (~0.5 s) and bounded to 32-bit values. */
export function decryptWithElGamal(keys: AccountKeyMaterial, ciphertextBytes: Uint8Array): bigint {
  const ciphertext = zk.ElGamalCiphertext.fromBytes(ciphertextBytes);
  if (ciphertext === undefined) {
    throw new Error('malformed ElGamal ciphertext');
  }
  return zk.ElGamalSecretKey.fromBytes(keys.elgamalSecret).decrypt(ciphertext);
}

export function decryptPendingWithElGamal(keys: AccountKeyMaterial, view: LedgerAccountView): bigint {
  if (!view.confidentialReady) {
    throw new Error(`${view.tokenAccount} is not a confidential account`);
  }
  if (view.pendingCreditCounter === 0n) {
    return 0n;
  }
  return (
    decryptWithElGamal(keys, view.pendingBalanceLo) + (decryptWithElGamal(keys, view.pendingBalanceHi) << 16n)
  );
}
