import { zk } from '@cts/crypto';
import { type AeKey } from '../keys/account-keys';
import { type ProofEngine } from '../proof-engine/proof-engine';
import { type ConfidentialAccountExtension } from '../accounts/token-state';
import { InsufficientFundsOnchainError, LedgerError } from '../ledger.errors';

const PENDING_LO_BITS = 16n;

export function decryptAvailable(extension: ConfidentialAccountExtension, ae: AeKey): bigint {
  const ciphertext = zk.AeCiphertext.fromBytes(new Uint8Array(extension.decryptableAvailableBalance));
  const amount = ciphertext?.decrypt(ae);
  if (amount === undefined) {
    throw new LedgerError('account_key_mismatch', 'the AE key does not open this account balance');
  }
  return amount;
}

/**
 * ElGamal decryption is a discrete log (~0.5 s of CPU each in WebAssembly on a 2-core box, a few ms
 * natively): done by the proof engine, and skipped when no credit has arrived since the last apply,
 * which the credit counter tells us for free.
 */
export function decryptPending(
  extension: ConfidentialAccountExtension,
  elgamalSecret: Uint8Array,
  engine: ProofEngine,
): bigint {
  if (extension.pendingBalanceCreditCounter === 0n) {
    return 0n;
  }
  const decrypt = (bytes: ArrayLike<number>) => {
    const amount = engine.decryptU32(elgamalSecret, new Uint8Array(bytes));
    if (amount === undefined) {
      throw new LedgerError('account_key_mismatch', 'the ElGamal key does not open the pending balance');
    }
    return amount;
  };
  return decrypt(extension.pendingBalanceLow) + (decrypt(extension.pendingBalanceHigh) << PENDING_LO_BITS);
}

export function assertCovers(available: bigint, amount: bigint): void {
  if (available < amount) {
    throw new InsufficientFundsOnchainError(
      'the source confidential available balance is lower than the amount (pending credits count only once applied)',
    );
  }
}
