import { subtractAmount, zk } from '@cts/crypto';
import { type AeKey } from '../keys/account-keys';
import { type ProofEngine } from '../proof-engine/proof-engine';
import { type ConfidentialAccountExtension, creditsMissedByLastApply } from '../accounts/token-state';
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
 * The available balance as an apply must restate it. The AE copy is what the last apply wrote; a
 * credit that landed between that apply's read and its execution went into the balance on the
 * ledger but not into the copy, and token-2022 records it: the actual credit counter differs from
 * the expected one. Then the ElGamal balance minus the copy encrypts exactly the credits missed,
 * a discrete log the proof engine takes (up to 2³²−1 base units, a race's few credits).
 */
export function decryptAvailableForApply(
  extension: ConfidentialAccountExtension,
  ae: AeKey,
  elgamalSecret: Uint8Array,
  engine: ProofEngine,
): bigint {
  const copy = decryptAvailable(extension, ae);
  if (!creditsMissedByLastApply(extension)) {
    return copy;
  }
  const missed = subtractAmount(new Uint8Array(extension.availableBalance), copy);
  const amount = missed && engine.decryptU32(elgamalSecret, missed);
  if (amount === undefined) {
    throw new LedgerError(
      'pending_balance_race',
      'credits that reached the account while its pending balance was applied are beyond what can be decrypted',
    );
  }
  return copy + amount;
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
