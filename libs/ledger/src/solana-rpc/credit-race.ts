import { type Address } from '@solana/kit';
import { type Token } from '@solana-program/token-2022';
import { confidentialExtensionOf, creditsMissedByLastApply } from '../accounts/token-state';
import { LedgerError } from '../ledger.errors';

/**
 * ApplyPendingBalance trusts our decryption of the pending balance; a credit landing between our read and
 * the apply is applied on-chain but missing from the AE balance. The counters reveal it.
 */
export function creditRaced(afterApply: Token): boolean {
  const extension = confidentialExtensionOf(afterApply);
  return extension !== null && creditsMissedByLastApply(extension);
}

/** Applies of one pending balance that credits may race before giving up (each restates the last). */
const MAX_APPLY_ATTEMPTS = 10;

/**
 * Other senders' credits are not under the account's lock: one that lands while an apply is built
 * leaves the AE balance short of the ledger's. The next apply restates it from the ElGamal balance
 * (the builder), so `apply` runs again until none raced; a short AE balance could neither prove a
 * transfer nor show a balance.
 */
export async function applyUntilUnraced<T>(
  token: Address,
  apply: () => Promise<{ signature: T; raced: boolean }>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const { signature, raced } = await apply();
    if (!raced) {
      return signature;
    }
    if (attempt === MAX_APPLY_ATTEMPTS) {
      throw new LedgerError(
        'pending_balance_race',
        `credits kept reaching ${token} while its pending balance was applied (${attempt} attempts)`,
      );
    }
  }
}
