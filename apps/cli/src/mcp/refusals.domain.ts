import { type SpendPolicy } from '@cts/sdk';

/** The `reason` of a `403 policy_violation` (ARCHITECTURE §6). */
export type PolicyViolationReason =
  | 'per_transaction_limit_exceeded'
  | 'daily_limit_exceeded'
  | 'recipient_not_allowed'
  | 'asset_not_allowed'
  | 'outside_active_hours';

export interface Attempt {
  to: string;
  /** null: not known (an x402 quote names its asset by mint, which the agent cannot map to a code). */
  asset: string | null;
}

/** Limits are in USDC for USDC and in the asset's own units otherwise (no price oracle). */
const unitOf = (asset: string | null) => (asset === null ? '' : ` ${asset}`);

/**
 * The asset of a refused x402 quote, as far as the agent can tell it without guessing: the service's
 * error names only the rule. Rules are checked asset first, so any other refusal means the quote's
 * asset is one the policy allows; when the policy allows exactly one, it is that one.
 */
export function refusedQuoteAsset(reason: string, policy: SpendPolicy | null): string | null {
  const assets = policy?.assets ?? ['USDC'];
  return policy && reason !== 'asset_not_allowed' && assets.length === 1 ? (assets[0] ?? null) : null;
}

const quoted = (items: string[]) => items.map((item) => `"${item}"`).join(', ');

/**
 * Why the spend policy refused a payment, in words a model can act on. The service's error names
 * only the rule (it never shows a limit); the numbers come from the policy the agent may read
 * itself. Without the policy (it could not be read) the words name the rule alone.
 */
export function explainRefusal(reason: string, attempt: Attempt, policy: SpendPolicy | null): string {
  const unit = unitOf(attempt.asset);
  switch (reason as PolicyViolationReason) {
    case 'per_transaction_limit_exceeded':
      return policy
        ? `above the per-transaction limit of ${policy.per_transaction_limit_usdc}${unit}: pay at most ${policy.per_transaction_limit_usdc}${unit} in one payment`
        : 'above the per-transaction limit: pay less in one payment (get_policy shows the limit)';
    case 'daily_limit_exceeded':
      return policy
        ? `above what is left of the daily limit of ${policy.daily_limit_usdc}${unit} (days count in ${policy.timezone ?? 'UTC'}): pay less, or wait until tomorrow`
        : 'above what is left of the daily limit: pay less, or wait until tomorrow';
    case 'recipient_not_allowed':
      return policy && (policy.allowed_recipients ?? []).length === 0
        ? `the recipient "${attempt.to}" is not allowed: the policy allows no recipient at all`
        : `the recipient "${attempt.to}" is not allowed${policy ? `; allowed recipients: ${quoted(policy.allowed_recipients ?? ['*'])}` : ''}`;
    case 'asset_not_allowed':
      return `${attempt.asset === null ? 'the asset asked for' : `the asset ${attempt.asset}`} is not allowed${policy ? `; allowed assets: ${(policy.assets ?? ['USDC']).join(', ')}` : ''}`;
    case 'outside_active_hours':
      return policy?.active_hours
        ? `outside the active hours ${policy.active_hours} (${policy.timezone ?? 'UTC'}): try again within them`
        : 'outside the active hours of the policy: try again later';
    default:
      return `refused by the spend policy (${reason})`;
  }
}

/** The policy as a few sentences, for a model planning a payment. */
export function summarizePolicy(policy: SpendPolicy): string {
  const timezone = policy.timezone ?? 'UTC';
  const recipients = policy.allowed_recipients ?? ['*'];
  const assets = policy.assets ?? ['USDC'];
  const parts = [
    `At most ${policy.per_transaction_limit_usdc} per payment and ${policy.daily_limit_usdc} per day (days in ${timezone}), in USDC for USDC and in the asset's own units for other assets.`,
    `Assets: ${assets.join(', ')}.`,
    recipients.length === 0
      ? 'Recipients: none allowed.'
      : recipients.includes('*')
        ? 'Recipients: anyone.'
        : `Recipients matching: ${quoted(recipients)} (@handle exactly, example.com exactly, *.example.com any subdomain).`,
    policy.active_hours ? `Active hours: ${policy.active_hours} (${timezone}).` : 'Active at any hour.',
    policy.hitl_threshold_usdc === null || policy.hitl_threshold_usdc === undefined
      ? 'No payment waits for approval.'
      : `A payment above ${policy.hitl_threshold_usdc} waits for the owner's approval (up to ${policy.approval_window_minutes ?? 60} minutes) before anything moves.`,
  ];
  return parts.join(' ');
}
