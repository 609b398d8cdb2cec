import { z } from 'zod';
import { Timestamp } from '../parties';

/** The last part of an agent handle: 3 to 30 lowercase letters, digits or `_` (like an account handle). */
export const AGENT_NAME_PATTERN = /^[a-z0-9_-]{1,32}$/;
export const AgentName = z
  .string()
  .regex(AGENT_NAME_PATTERN, 'must be 1-32 lowercase letters, digits, _ or -');

/** Spec §2.3: an agent handle is namespaced under its owner, `@<owner_name>/<agent_name>`. */
export const AGENT_HANDLE_PATTERN = /^@[a-z0-9_]{3,30}\/[a-z0-9_-]{1,32}$/;
export const AgentHandle = z.string().regex(AGENT_HANDLE_PATTERN, 'must be @<owner_name>/<agent_name>');

/** Spec §2.3 shows only `active`; other statuses are not part of the contract yet. */
export const AgentStatus = z.enum(['active']);
export type AgentStatus = z.infer<typeof AgentStatus>;

/** Spec §2.3, plus `owner_account_id` and `created_at` (the gateway shows the spec's subset). */
export const Agent = z.object({
  account_id: z.string(),
  handle: z.string(),
  public_key: z.string(),
  status: AgentStatus,
  spend_policy_id: z.string(),
  owner_account_id: z.string(),
  created_at: Timestamp,
});
export type Agent = z.infer<typeof Agent>;

/**
 * Spec §2.4 plus ARCHITECTURE §6 (`timezone`, `approval_window_minutes`). Limits and the threshold
 * are numbers in asset units with at most 6 decimals; `active_hours` null means always active,
 * `hitl_threshold_usdc` null means nothing is held.
 */
export const SpendPolicy = z.object({
  policy_id: z.string(),
  daily_limit_usdc: z.number(),
  per_transaction_limit_usdc: z.number(),
  allowed_recipients: z.array(z.string()),
  assets: z.array(z.string()),
  active_hours: z.string().nullable(),
  timezone: z.string(),
  hitl_threshold_usdc: z.number().nullable(),
  approval_window_minutes: z.number().int(),
  updated_at: Timestamp,
});
export type SpendPolicy = z.infer<typeof SpendPolicy>;

/** The policy fields a client may set (create) or change (update). */
export const SPEND_POLICY_FIELDS = [
  'daily_limit_usdc',
  'per_transaction_limit_usdc',
  'allowed_recipients',
  'assets',
  'active_hours',
  'timezone',
  'hitl_threshold_usdc',
  'approval_window_minutes',
] as const;
export type SpendPolicyField = (typeof SPEND_POLICY_FIELDS)[number];

/**
 * A policy (or a patch of one) exactly as the client sent it. agent-policy-service validates it
 * field by field, so the error names the field (`invalid_policy` with `param`) and the rules live
 * in one place.
 */
export const RawSpendPolicy = z.record(z.string(), z.unknown());
export type RawSpendPolicy = z.infer<typeof RawSpendPolicy>;

/** ARCHITECTURE §6: the `reason` of a `policy_violation` error. WARNING: clients match on these. */
export const PolicyViolationReason = z.enum([
  'per_transaction_limit_exceeded',
  'daily_limit_exceeded',
  'recipient_not_allowed',
  'asset_not_allowed',
  'outside_active_hours',
]);
export type PolicyViolationReason = z.infer<typeof PolicyViolationReason>;

/** `attempt`: the agent tries to sign; `approval_recheck`: a human approved a held transaction. */
export const SpendEvaluationMode = z.enum(['attempt', 'approval_recheck']);
export type SpendEvaluationMode = z.infer<typeof SpendEvaluationMode>;
