import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CtsApiError } from '@cts/sdk';
import { z } from 'zod';
import { type AgentSession } from '../agent-session';
import { summarizePolicy } from '../refusals.domain';
import { guarded, structured, toolError } from '../tool-results';

const PolicyOutput = {
  agent: z.string().describe("This agent's handle"),
  policy_id: z.string(),
  per_transaction_limit_usdc: z.number().describe('Largest single payment'),
  daily_limit_usdc: z.number().describe('Total per calendar day in `timezone`'),
  allowed_recipients: z.array(z.string()).describe('Patterns `to` must match; [] allows nobody, "*" anyone'),
  assets: z.array(z.string()).describe('Assets the agent may pay with'),
  active_hours: z.string().nullable().describe('"HH:MM-HH:MM" in `timezone`; null: any hour'),
  timezone: z.string(),
  hitl_threshold_usdc: z
    .number()
    .nullable()
    .describe("A payment above it waits for the owner's approval; null: never"),
  approval_window_minutes: z
    .number()
    .describe('How long a held payment waits for a decision before it expires'),
  updated_at: z.string(),
  summary: z.string().describe('The same rules in words'),
};

export function registerGetPolicyTool(server: McpServer, session: AgentSession): void {
  server.registerTool(
    'get_policy',
    {
      title: 'Spend policy',
      description:
        "The spend policy this agent's wallet runs under, set by its owner and enforced by the payment service on every payment: the per-payment and daily limits, which recipients and assets are allowed, the active hours, and the threshold above which a payment waits for the owner's approval. Read it before planning payments so they fit; it can change at any time, so read it again when a payment is refused. Limits for a non-USDC asset count in that asset's own units.",
      inputSchema: {},
      outputSchema: PolicyOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(async () => {
        const me = await session.me();
        if (me.type !== 'agent') {
          return toolError(
            `This server's API key belongs to ${me.handle}, a ${me.type} account, not an agent: only agents run under a spend policy. Start the server with an agent's key.`,
          );
        }
        try {
          const policy = await session.policy();
          return structured({
            agent: me.handle,
            policy_id: policy.policy_id,
            per_transaction_limit_usdc: policy.per_transaction_limit_usdc,
            daily_limit_usdc: policy.daily_limit_usdc,
            allowed_recipients: policy.allowed_recipients ?? ['*'],
            assets: policy.assets ?? ['USDC'],
            active_hours: policy.active_hours ?? null,
            timezone: policy.timezone ?? 'UTC',
            hitl_threshold_usdc: policy.hitl_threshold_usdc ?? null,
            approval_window_minutes: policy.approval_window_minutes ?? 60,
            updated_at: policy.updated_at,
            summary: summarizePolicy(policy),
          });
        } catch (error) {
          if (error instanceof CtsApiError && error.code === 'agent_not_found') {
            return toolError('This account has no spend policy: it is not an agent.');
          }
          throw error;
        }
      }),
  );
}
