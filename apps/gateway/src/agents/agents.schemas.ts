import { Agent, AgentName, ApiKeyName, Environment, SpendPolicy } from '@cts/contracts';
import { z } from 'zod';

const PolicyFields = z.record(z.string(), z.unknown()).describe(
  'daily_limit_usdc and per_transaction_limit_usdc (required on create), allowed_recipients, assets, active_hours ("HH:MM-HH:MM"), timezone (IANA, default UTC), hitl_threshold_usdc, approval_window_minutes (1..10080, default 60). Checked by the policy service: 400 invalid_policy names the field.',
);

export const CreateAgentBody = z
  .object({ name: AgentName, spend_policy: PolicyFields })
  .strict()
  .meta({ id: 'CreateAgentRequest' });
export type CreateAgentBody = z.infer<typeof CreateAgentBody>;

export const AgentSchema = Agent.meta({ id: 'AgentAccount', description: 'Spec §2.3, plus owner_account_id and created_at' });
export const CreatedAgentSchema = Agent.extend({
  decryption_key: z.string().describe("The agent's decryption key, for its owner: shown once, opens the agent's balances and amounts client-side"),
}).meta({ id: 'CreatedAgentAccount' });
export const AgentListSchema = z.object({ agents: z.array(AgentSchema) }).meta({ id: 'AgentList' });
export const SpendPolicySchema = SpendPolicy.meta({ id: 'SpendPolicy' });
export const SpendPolicyPatch = PolicyFields.meta({ id: 'SpendPolicyPatch', description: 'Any of the policy fields; only those given change' });

export const AgentKeyBody = z
  .object({ name: ApiKeyName, environment: Environment.optional().describe("Defaults to the calling key's environment") })
  .strict()
  .meta({ id: 'CreateAgentApiKeyRequest' });
export type AgentKeyBody = z.infer<typeof AgentKeyBody>;

export const AgentIdParam = z.string().min(1).max(64);
