import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { type AgentSession } from '../agent-session';
import { guarded, structured } from '../tool-results';

const Payment = z.object({
  transfer_id: z.string(),
  direction: z.string().describe('sent or received'),
  status: z.string().describe('pending, confirmed or failed'),
  from: z.string().optional(),
  to: z.string(),
  asset: z.string(),
  created_at: z.string(),
});

const Held = z.object({
  transaction_id: z.string(),
  to: z.string(),
  asset: z.string(),
  requested_at: z.string(),
  expires_at: z.string(),
});

export function registerListPaymentsTool(server: McpServer, session: AgentSession): void {
  server.registerTool(
    'list_payments',
    {
      title: 'Recent payments',
      description:
        "This agent's recent transfers, newest first (sent and received, without amounts: they are encrypted and this agent's key cannot read them), and the payments still waiting for the owner's approval. Use it to check whether a payment was already made before paying again.",
      inputSchema: {
        limit: z.number().int().min(1).max(50).default(10).describe('How many transfers, 1..50 (default 10)'),
        status: z
          .enum(['pending', 'confirmed', 'failed'])
          .optional()
          .describe('Only transfers in this state'),
      },
      outputSchema: {
        payments: z.array(Payment),
        has_more: z.boolean().describe('Older transfers exist beyond `limit`'),
        awaiting_approval: z.array(Held).describe('Payments held for the owner, nothing moved yet'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ limit, status }) =>
      guarded(async () => {
        const me = await session.me();
        const [page, held] = await Promise.all([
          session.client.transfers({ limit, ...(status ? { status } : {}) }),
          me.type === 'agent'
            ? session.client.agentTransactions(me.account_id, { status: 'pending_approval', limit: 100 })
            : Promise.resolve({ transactions: [], has_more: false }),
        ]);
        return structured({
          // Field by field: encrypted amounts and memos stay out of the model's context.
          payments: page.transfers.map((t) => ({
            transfer_id: t.transfer_id,
            direction: t.direction ?? 'sent',
            status: t.status,
            ...(t.from ? { from: t.from } : {}),
            to: t.to,
            asset: t.asset,
            created_at: t.created_at,
          })),
          has_more: page.has_more,
          awaiting_approval: held.transactions.map((h) => ({
            transaction_id: h.transaction_id,
            to: h.to ?? '',
            asset: h.asset ?? '',
            requested_at: h.requested_at ?? '',
            expires_at: h.expires_at ?? '',
          })),
        });
      }),
  );
}
