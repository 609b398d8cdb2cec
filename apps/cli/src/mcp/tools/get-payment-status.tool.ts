import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type AgentTransaction, type Transfer } from '@cts/sdk';
import { z } from 'zod';
import { type AgentSession } from '../agent-session';
import { guarded, structured } from '../tool-results';

const StatusOutput = {
  kind: z.enum(['transfer', 'held_transaction']),
  status: z
    .enum(['pending', 'confirmed', 'failed', 'pending_approval', 'approved', 'rejected', 'expired'])
    .describe(
      'A transfer: pending, confirmed or failed. A held transaction: pending_approval, approved (then transfer_id is the payment), rejected, expired (nothing moved) or failed.',
    ),
  message: z.string(),
  to: z.string(),
  asset: z.string(),
  transfer_id: z
    .string()
    .nullable()
    .describe('The transfer; for a held transaction, set once approved and settled'),
  transaction_id: z.string().optional(),
  transfer_status: z
    .enum(['pending', 'confirmed', 'failed'])
    .optional()
    .describe('For an approved held transaction: its transfer'),
  created_at: z.string().optional(),
  confirmed_at: z.string().nullable().optional(),
  requested_at: z.string().optional(),
  expires_at: z.string().optional(),
  decided_at: z.string().nullable().optional(),
  failure_reason: z.string().nullable().optional(),
};

const HELD_MESSAGES: Record<string, string> = {
  pending_approval:
    'Waiting for the owner to approve or reject it; nothing has moved. Check again later; do not pay again.',
  approved: 'The owner approved it: the payment was made as transfer_id.',
  rejected: 'The owner rejected it: nothing moved. Do not retry the same payment unless the owner asks.',
  expired:
    'Nobody decided within the approval window: it expired and nothing moved. Pay again (new idempotency_key) only if still needed.',
  failed: 'The owner approved it but the transfer could not settle: nothing moved.',
};

const transferView = (transfer: Transfer) => ({
  kind: 'transfer',
  status: transfer.status,
  to: transfer.to,
  asset: transfer.asset,
  transfer_id: transfer.transfer_id,
  created_at: transfer.created_at,
  confirmed_at: transfer.confirmed_at ?? null,
  failure_reason: transfer.failure_reason ?? null,
  message:
    transfer.status === 'confirmed'
      ? 'Paid: the transfer is confirmed.'
      : transfer.status === 'pending'
        ? 'Still settling: check again shortly.'
        : 'The transfer failed: no money moved.',
});

export function registerGetPaymentStatusTool(server: McpServer, session: AgentSession): void {
  server.registerTool(
    'get_payment_status',
    {
      title: 'Payment status',
      description:
        'The current state of a payment made with pay: give the transfer_id (tr_…) of a confirmed or pending payment, or the transaction_id (atx_…) of a payment held for approval. A held payment reports pending_approval until its owner decides, then approved (with the transfer_id of the payment), rejected or expired (nothing moved). Use it instead of paying again.',
      inputSchema: {
        payment_id: z
          .string()
          .trim()
          .regex(
            /^(tr|atx)_[0-9a-z]{1,60}$/,
            'a transfer_id (tr_…) or a transaction_id (atx_…) returned by pay',
          )
          .describe('A transfer_id (tr_…) or a transaction_id (atx_…) returned by pay'),
      },
      outputSchema: StatusOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ payment_id }) =>
      guarded(async () => {
        if (payment_id.startsWith('tr_')) {
          return structured(transferView(await session.client.transfer(payment_id)));
        }
        const held = await session.client.agentTransaction(payment_id);
        return structured(await heldView(held, session));
      }),
  );
}

async function heldView(held: AgentTransaction, session: AgentSession) {
  // An approved x402 payment names its payment (`x402_…`), not a transfer: the agent pays it itself.
  const x402 = held.transfer_id?.startsWith('x402_') === true;
  const transferStatus =
    held.transfer_id && !x402 ? (await session.client.transfer(held.transfer_id)).status : undefined;
  return {
    kind: 'held_transaction',
    status: held.status,
    to: held.to ?? '',
    asset: held.asset ?? '',
    transaction_id: held.transaction_id,
    transfer_id: held.transfer_id ?? null,
    ...(transferStatus ? { transfer_status: transferStatus } : {}),
    requested_at: held.requested_at,
    expires_at: held.expires_at,
    decided_at: held.decided_at ?? null,
    failure_reason: held.failure_reason ?? null,
    message:
      x402 && held.status === 'approved'
        ? `The owner approved this x402 payment: call pay_for_resource again for the same URL with approved_transaction_id "${held.transaction_id}" to pay it.`
        : (HELD_MESSAGES[held.status] ?? held.status),
  };
}
