import { type PolicyViolationReason, type SpendEvaluationMode } from '@cts/contracts';
import { isWithinActiveHours, localTime, parseActiveHours } from './active-hours.domain';
import { assetDecimals, limitInBaseUnits } from './policy-amounts.domain';
import { isRecipientAllowed } from './recipient-pattern.domain';
import { type SpendPolicyRules } from './spend-policy.domain';

export interface SpendAttempt {
  /** The recipient as the sender wrote it (an x402 payment: the resource's host). */
  to: string;
  /** An x402 payment's payee address: allowed too when a raw-address pattern names it. */
  payTo?: string;
  /** Upper-case asset code. */
  asset: string;
  /** Base units of `asset`. */
  amount: bigint;
  at: Date;
  mode: SpendEvaluationMode;
  /**
   * Base units of `asset` already reserved on the day of `at` (spendingDay), not counting this
   * transaction's own reservation.
   */
  spentToday: bigint;
}

export type SpendVerdict =
  | { outcome: 'allow' }
  | { outcome: 'hold' }
  | { outcome: 'deny'; reason: PolicyViolationReason; message: string };

/** The key of the daily limit: the calendar day at `at` in the policy's time zone. */
export function spendingDay(policy: Pick<SpendPolicyRules, 'timezone'>, at: Date): string {
  return localTime(at, policy.timezone).day;
}

const deny = (reason: PolicyViolationReason, message: string): SpendVerdict => ({
  outcome: 'deny',
  reason,
  message,
});

/**
 * The policy's verdict on one agent transaction. Checks in this order, the first failure wins:
 * asset, recipient, active hours, per-transaction limit, daily limit; then the threshold (attempts
 * only: an approval re-check ignores it, the human has just approved). Limits apply in the asset's
 * own units (no price oracle): a 100 limit is 100 USDC or 100 SOL. Messages never carry amounts.
 */
export function evaluateSpend(policy: SpendPolicyRules, attempt: SpendAttempt): SpendVerdict {
  const decimals = assetDecimals(attempt.asset);
  if (decimals === undefined || !policy.assets.includes(attempt.asset)) {
    return deny('asset_not_allowed', `The spend policy does not allow ${attempt.asset}`);
  }
  const recipientAllowed =
    isRecipientAllowed(policy.allowedRecipients, attempt.to) ||
    (attempt.payTo !== undefined && isRecipientAllowed(policy.allowedRecipients, attempt.payTo));
  if (!recipientAllowed) {
    return deny('recipient_not_allowed', 'The spend policy does not allow this recipient');
  }
  if (policy.activeHours !== null) {
    const hours = parseActiveHours(policy.activeHours);
    const { minuteOfDay } = localTime(attempt.at, policy.timezone);
    // A stored range is valid; if it ever were not, failing closed is the safe side.
    if (!hours.ok || !isWithinActiveHours(hours.value, minuteOfDay)) {
      return deny(
        'outside_active_hours',
        `The spend policy allows transactions only during ${policy.activeHours} (${policy.timezone})`,
      );
    }
  }
  if (attempt.amount > limitInBaseUnits(policy.perTransactionLimit, decimals)) {
    return deny('per_transaction_limit_exceeded', 'The amount exceeds the per-transaction limit');
  }
  if (attempt.spentToday + attempt.amount > limitInBaseUnits(policy.dailyLimit, decimals)) {
    return deny('daily_limit_exceeded', 'The amount would exceed the daily limit');
  }
  if (
    attempt.mode === 'attempt' &&
    policy.hitlThreshold !== null &&
    attempt.amount > limitInBaseUnits(policy.hitlThreshold, decimals)
  ) {
    return { outcome: 'hold' };
  }
  return { outcome: 'allow' };
}
