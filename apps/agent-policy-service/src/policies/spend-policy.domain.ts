import { type Environment, type SpendPolicy, type SpendPolicyField } from '@cts/contracts';
import { limitToNumber } from './policy-amounts.domain';

/** The rules of a spend policy, validated. Limits in millionths of an asset unit. */
export interface SpendPolicyRules {
  dailyLimit: bigint;
  perTransactionLimit: bigint;
  /** As the owner wrote them; matched case-insensitively. */
  allowedRecipients: string[];
  /** Upper-case asset codes. */
  assets: string[];
  /** `HH:MM-HH:MM`, or null: always active. */
  activeHours: string | null;
  /** Canonical IANA name. */
  timezone: string;
  /** Null: nothing is held. */
  hitlThreshold: bigint | null;
  approvalWindowMinutes: number;
}

export interface SpendPolicyState extends SpendPolicyRules {
  id: string;
  agentAccountId: string;
  environment: Environment;
  updatedAt: Date;
}

export const POLICY_DEFAULTS = {
  allowedRecipients: ['*'],
  assets: ['USDC'],
  activeHours: null,
  timezone: 'UTC',
  hitlThreshold: null,
  approvalWindowMinutes: 60,
} as const satisfies Partial<SpendPolicyRules>;

/** API field name → rules property. */
export const FIELD_PROPERTIES = {
  daily_limit_usdc: 'dailyLimit',
  per_transaction_limit_usdc: 'perTransactionLimit',
  allowed_recipients: 'allowedRecipients',
  assets: 'assets',
  active_hours: 'activeHours',
  timezone: 'timezone',
  hitl_threshold_usdc: 'hitlThreshold',
  approval_window_minutes: 'approvalWindowMinutes',
} as const satisfies Record<SpendPolicyField, keyof SpendPolicyRules>;

export function toSpendPolicyResource(policy: SpendPolicyState): SpendPolicy {
  return {
    policy_id: policy.id,
    daily_limit_usdc: limitToNumber(policy.dailyLimit),
    per_transaction_limit_usdc: limitToNumber(policy.perTransactionLimit),
    allowed_recipients: [...policy.allowedRecipients],
    assets: [...policy.assets],
    active_hours: policy.activeHours,
    timezone: policy.timezone,
    hitl_threshold_usdc: policy.hitlThreshold === null ? null : limitToNumber(policy.hitlThreshold),
    approval_window_minutes: policy.approvalWindowMinutes,
    updated_at: policy.updatedAt.toISOString(),
  };
}
