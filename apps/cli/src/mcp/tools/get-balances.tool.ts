import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { type AgentSession } from '../agent-session';
import { guarded, structured } from '../tool-results';

const NOTE =
  "Amounts are encrypted on the ledger and this agent's key cannot decrypt them: only the owner can read how much there is. A payment larger than the balance is refused with nothing moved.";

export function registerGetBalancesTool(server: McpServer, session: AgentSession): void {
  server.registerTool(
    'get_balances',
    {
      title: 'Balances (which assets, not how much)',
      description:
        "Which assets this agent's wallet holds a non-zero balance of. It never returns an amount: balances are confidential (encrypted on the ledger) and this agent's key cannot decrypt them; only the owner can. Use it to know which asset to pay with; an attempt to pay more than the balance is refused with insufficient_balance and nothing moves.",
      inputSchema: {},
      outputSchema: {
        balances: z
          .array(z.object({ asset: z.string(), has_balance: z.boolean() }))
          .describe('One entry per asset: whether its balance is above zero'),
        note: z.string(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(async () => {
        const { balances } = await session.client.balances();
        return structured({
          // Only these two fields, whatever else the API adds: an amount must never reach the model.
          balances: balances.map((entry) => ({
            asset: entry.asset,
            has_balance: entry.has_balance === true,
          })),
          note: NOTE,
        });
      }),
  );
}
