import { bytesEqual, concatBytes } from './encoding';
import { ELGAMAL_CIPHERTEXT_BYTES, ELGAMAL_PUBKEY_BYTES, subtractAmount } from './elgamal';
import { isU64 } from './u64';
import { zk } from './zk-sdk';

/** zk-sdk ZeroCiphertextProofData: context (pubkey 32 ‖ ciphertext 64) ‖ sigma proof 96. */
export const DECRYPTION_PROOF_BYTES = 192;

export interface DecryptionProofClaim {
  /** The account's ElGamal public key, from custody, never from the request. */
  elgamalPubkey: Uint8Array;
  /** The ledger's current available-balance ciphertext, never from the request. */
  availableBalanceCiphertext: Uint8Array;
  /** The claimed balance in base units. */
  amount: bigint;
  proof: Uint8Array;
}

/**
 * Accepts exactly when the proof shows that `availableBalanceCiphertext` encrypts `amount` under
 * `elgamalPubkey`: the proof must be a zero-ciphertext proof whose context is our own recomputation
 * of (pubkey ‖ C − amount·G). Binding the context is what rejects replays against another
 * ciphertext or another key; `verify()` alone would accept any well-formed proof.
 */
export function verifyDecryptionProof(claim: DecryptionProofClaim): boolean {
  const { elgamalPubkey, availableBalanceCiphertext, amount, proof } = claim;
  if (
    elgamalPubkey.length !== ELGAMAL_PUBKEY_BYTES ||
    availableBalanceCiphertext.length !== ELGAMAL_CIPHERTEXT_BYTES ||
    proof.length !== DECRYPTION_PROOF_BYTES ||
    !isU64(amount)
  ) {
    return false;
  }
  const shifted = subtractAmount(availableBalanceCiphertext, amount);
  if (!shifted) {
    return false;
  }
  let proofData: InstanceType<typeof zk.ZeroCiphertextProofData> | undefined;
  try {
    proofData = zk.ZeroCiphertextProofData.fromBytes(proof);
    const context = proofData.context();
    const contextBytes = context.toBytes();
    context.free();
    if (!bytesEqual(contextBytes, concatBytes(elgamalPubkey, shifted))) {
      return false;
    }
    proofData.verify();
    return true;
  } catch {
    return false;
  } finally {
    proofData?.free();
  }
}
