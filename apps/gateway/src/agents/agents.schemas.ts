import { Agent, AgentName, ApiKeyName, Environment, SpendPolicy } from '@cts/contracts';
import { z } from 'zod';
import { IdString } from '../http/query.schemas';

// What the policy service accepts, so the OpenAPI document says it; the service checks again
// (and checks across fields: per-transaction ≤ daily). A failure here is `400 invalid_policy` too,
// in the service's words.
const typeError = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : expected;
const limit = () =>
  z
    .number({ error: typeError('must be a number') })
    .min(0, 'must not be negative')
    .max(1_000_000_000, 'must not exceed 1000000000');
// The array's `error` also words any of its checks that has no message of its own (zod 4): every
// check here has one, so each failure says what it is.
const strings = (most: number, what: string) =>
  z
    .array(
      z
        .string({ error: 'must be a string' })
        .min(1, 'must not be empty')
        .max(256, 'must be at most 256 characters'),
      { error: 'must be an array of strings' },
    )
    .max(most, `must hold at most ${most} ${what}`);
const PolicyFields = {
  daily_limit_usdc: limit().describe('Asset units, at most 6 decimals'),
  per_transaction_limit_usdc: limit().describe('Asset units, at most 6 decimals, at most daily_limit_usdc'),
  allowed_recipients: strings(100, 'patterns').describe(
    'Recipient patterns (`@handle`, `*.example.com`, address, `*` for anyone); default ["*"]; empty allows nobody',
  ),
  assets: strings(10, 'assets').describe('Asset codes (USDC, SOL); default ["USDC"]; empty allows none'),
  active_hours: z
    .string({ error: 'must be a string HH:MM-HH:MM or null' })
    .regex(
      /^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$/,
      'must be HH:MM-HH:MM with times from 00:00 to 23:59',
    )
    .nullable()
    .describe('"HH:MM-HH:MM" in `timezone` (may wrap midnight); null means always'),
  timezone: z
    .string({ error: 'must be an IANA time zone name such as UTC or Europe/Paris' })
    .min(1, 'must be an IANA time zone name such as UTC or Europe/Paris')
    .max(64, 'must be an IANA time zone name such as UTC or Europe/Paris')
    .describe('IANA time zone, default UTC'),
  hitl_threshold_usdc: limit()
    .nullable()
    .describe('Transfers above it wait for human approval; null holds nothing'),
  approval_window_minutes: z
    .number({ error: 'must be a whole number of minutes from 1 to 10080' })
    .int('must be a whole number of minutes from 1 to 10080')
    .min(1, 'must be a whole number of minutes from 1 to 10080')
    .max(10_080, 'must be a whole number of minutes from 1 to 10080')
    .describe('How long a held transfer waits, default 60'),
};
const INVALID_POLICY = { 'x-error-code': 'invalid_policy' } as const;

const { daily_limit_usdc, per_transaction_limit_usdc, ...optionalFields } = PolicyFields;

export const SpendPolicyInput = z
  .object({ daily_limit_usdc, per_transaction_limit_usdc })
  .extend(z.object(optionalFields).partial().shape)
  .strict()
  .meta({ id: 'SpendPolicyInput', ...INVALID_POLICY });

export const CreateAgentBody = z
  .object({ name: AgentName, spend_policy: SpendPolicyInput })
  .strict()
  .meta({ id: 'CreateAgentRequest' });
export type CreateAgentBody = z.infer<typeof CreateAgentBody>;

export const AgentSchema = Agent.meta({
  id: 'AgentAccount',
  description: 'Spec §2.3, plus owner_account_id and created_at',
});
export const CreatedAgentSchema = Agent.extend({
  decryption_key: z
    .string()
    .describe(
      "The agent's decryption key, for its owner: shown once, opens the agent's balances and amounts client-side",
    ),
}).meta({ id: 'CreatedAgentAccount' });
export const AgentListSchema = z.object({ agents: z.array(AgentSchema) }).meta({ id: 'AgentList' });
export const SpendPolicySchema = SpendPolicy.meta({ id: 'SpendPolicy' });
export const SpendPolicyPatch = z
  .object(PolicyFields)
  .partial()
  .strict()
  .meta({
    id: 'SpendPolicyPatch',
    description: 'Any of the policy fields; only those given change (none: a no-op)',
    ...INVALID_POLICY,
  });

export const AgentKeyBody = z
  .object({
    name: ApiKeyName,
    environment: Environment.optional().describe("Defaults to the calling key's environment"),
  })
  .strict()
  .meta({ id: 'CreateAgentApiKeyRequest' });
export type AgentKeyBody = z.infer<typeof AgentKeyBody>;

export const AgentIdParam = IdString();
