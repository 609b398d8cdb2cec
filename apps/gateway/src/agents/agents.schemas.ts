import { Agent, AgentName, ApiKeyName, Environment, SpendPolicy } from '@cts/contracts';
import { z } from 'zod';

// What the policy service accepts, so the OpenAPI document says it; the service checks again
// (and checks across fields: per-transaction ≤ daily). A failure here is `400 invalid_policy` too.
const Limit = z.number().min(0).max(1_000_000_000).describe('Asset units, at most 6 decimals');
const PolicyFields = {
  daily_limit_usdc: Limit,
  per_transaction_limit_usdc: Limit.describe('Asset units, at most 6 decimals, at most daily_limit_usdc'),
  allowed_recipients: z
    .array(z.string().min(1).max(256))
    .max(100)
    .describe('Recipient patterns (`@handle`, `*.example.com`, address); empty allows any'),
  assets: z.array(z.string().min(1).max(16)).max(10).describe('Asset codes (USDC, SOL); empty allows any'),
  active_hours: z
    .string()
    .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$/, 'must be HH:MM-HH:MM')
    .nullable()
    .describe('"HH:MM-HH:MM" in `timezone` (may wrap midnight); null means always'),
  timezone: z.string().min(1).max(64).describe('IANA time zone, default UTC'),
  hitl_threshold_usdc: Limit.nullable().describe('Transfers above it wait for human approval; null holds nothing'),
  approval_window_minutes: z.number().int().min(1).max(10_080).describe('How long a held transfer waits, default 60'),
};
const INVALID_POLICY = { 'x-error-code': 'invalid_policy' } as const;

export const SpendPolicyInput = z
  .object(PolicyFields)
  .partial()
  .required({ daily_limit_usdc: true, per_transaction_limit_usdc: true })
  .strict()
  .meta({ id: 'SpendPolicyInput', ...INVALID_POLICY });

export const CreateAgentBody = z
  .object({ name: AgentName, spend_policy: SpendPolicyInput })
  .strict()
  .meta({ id: 'CreateAgentRequest' });
export type CreateAgentBody = z.infer<typeof CreateAgentBody>;

export const AgentSchema = Agent.meta({ id: 'AgentAccount', description: 'Spec §2.3, plus owner_account_id and created_at' });
export const CreatedAgentSchema = Agent.extend({
  decryption_key: z.string().describe("The agent's decryption key, for its owner: shown once, opens the agent's balances and amounts client-side"),
}).meta({ id: 'CreatedAgentAccount' });
export const AgentListSchema = z.object({ agents: z.array(AgentSchema) }).meta({ id: 'AgentList' });
export const SpendPolicySchema = SpendPolicy.meta({ id: 'SpendPolicy' });
export const SpendPolicyPatch = z
  .object(PolicyFields)
  .partial()
  .strict()
  .meta({ id: 'SpendPolicyPatch', description: 'Any of the policy fields; only those given change (none: a no-op)', ...INVALID_POLICY });

export const AgentKeyBody = z
  .object({ name: ApiKeyName, environment: Environment.optional().describe("Defaults to the calling key's environment") })
  .strict()
  .meta({ id: 'CreateAgentApiKeyRequest' });
export type AgentKeyBody = z.infer<typeof AgentKeyBody>;

export const AgentIdParam = z.string().min(1).max(64);
