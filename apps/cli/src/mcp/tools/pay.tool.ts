import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CtsApiError, type CreateTransferInput } from '@cts/sdk';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type AgentSession } from '../agent-session';
import { explainRefusal } from '../refusals.domain';
import { describeFailure, structured } from '../tool-results';

/** A plain decimal greater than zero, as the API takes it (no sign, exponent or leading zeros). */
const AMOUNT = /^(?!0(\.0+)?$)(0|[1-9][0-9]{0,19})(\.[0-9]{1,9})?$/;

const PayInput = {
  to: z
    .string()
    .trim()
    .min(1)
    .max(256)
    .describe(
      'Recipient: an @handle (e.g. "@acme"), a verified domain (e.g. "shop.example.com") or an on-chain address',
    ),
  amount: z
    .union([
      z.string().regex(AMOUNT, 'must be a decimal string greater than zero, such as "12.50"'),
      // A model may send a JSON number: taken as its shortest decimal form, checked like a string.
      z
        .number()
        .positive()
        .transform((n, ctx) => {
          const text = String(n);
          if (!AMOUNT.test(text)) {
            ctx.addIssue({
              code: 'custom',
              message: 'must be a plain decimal greater than zero, such as "12.50"',
            });
            return z.NEVER;
          }
          return text;
        }),
    ])
    .describe('Decimal string greater than zero, e.g. "12.50"; at most 6 decimals for USDC, 9 for SOL'),
  asset: z.enum(['USDC', 'SOL']).describe('The asset to pay with'),
  memo: z.string().max(512).optional().describe('Optional note for the recipient, encrypted end to end'),
  idempotency_key: z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'printable ASCII without spaces, at most 255 characters')
    .optional()
    .describe(
      'Your key for this payment intent (e.g. "order-1234"). Pass the SAME key when you retry the same payment (after a timeout, an error or a restart): the service then returns the first result and moves the money only once. Use a new key for a new payment.',
    ),
};

const PayOutput = {
  status: z
    .enum(['confirmed', 'pending', 'failed', 'pending_approval', 'refused', 'error'])
    .describe(
      'confirmed: paid. pending: submitted, not yet final. failed: did not settle. pending_approval: held for the owner, nothing moved yet. refused: the spend policy forbids it. error: not done.',
    ),
  message: z.string().describe('What happened and what to do next, in words'),
  to: z.string(),
  asset: z.string(),
  idempotency_key: z
    .string()
    .describe('The key this payment was sent with: reuse it to retry this same payment'),
  transfer_id: z.string().optional().describe('For confirmed, pending and failed payments'),
  transaction_id: z.string().optional().describe('For pending_approval: follow it with get_payment_status'),
  expires_at: z.string().optional().describe('For pending_approval: the owner must decide before this time'),
  reason: z
    .string()
    .optional()
    .describe(
      'For refused: the policy rule (e.g. per_transaction_limit_exceeded); for error: the error code',
    ),
};

const DESCRIPTION = [
  "Pay `amount` of `asset` from this agent's wallet to `to`. The payment is confidential: the amount is encrypted on the ledger.",
  "Every payment is checked against the agent's spend policy (see get_policy). The result's status says what happened:",
  '- "confirmed" (or "pending" while settling) with a transfer_id: the money moved;',
  '- "pending_approval" with a transaction_id and expires_at: the amount is above the owner\'s approval threshold, nothing has moved yet; check later with get_payment_status and do NOT pay again;',
  '- "refused" with a reason: the policy forbids this payment (e.g. "above the per-transaction limit of 25 USDC"); change the payment to fit the policy instead of retrying it unchanged;',
  '- "error": it was not done (e.g. insufficient balance, unknown recipient); the message says what to do.',
  'Always pass an idempotency_key; when you retry this payment for any reason (timeout, error, restart), pass the same idempotency_key again: the money then moves only once.',
].join('\n');

export function registerPayTool(server: McpServer, session: AgentSession): void {
  server.registerTool(
    'pay',
    {
      title: 'Pay',
      description: DESCRIPTION,
      inputSchema: PayInput,
      outputSchema: PayOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    async ({ to, amount, asset, memo, idempotency_key }) => {
      const idempotencyKey = idempotency_key ?? randomUUID();
      const base = { to, asset, idempotency_key: idempotencyKey };
      const input: CreateTransferInput = { to, amount, asset, ...(memo === undefined ? {} : { memo }) };
      try {
        await session.requireAgent();
        const result = await session.client.createTransfer(input, { idempotencyKey });
        if (result.kind === 'pending_approval') {
          const { transaction_id, expires_at } = result.transaction;
          return structured({
            ...base,
            status: 'pending_approval',
            transaction_id,
            expires_at,
            message: `Held for the owner's approval until ${expires_at}; nothing has moved yet. Do not pay again: follow it with get_payment_status("${transaction_id}").`,
          });
        }
        const { transfer } = result;
        return structured({
          ...base,
          status: transfer.status,
          transfer_id: transfer.transfer_id,
          message: messageForTransfer(transfer.status, transfer.transfer_id, transfer.failure_reason ?? null),
        });
      } catch (error) {
        return failed(error, base, session);
      }
    },
  );
}

function messageForTransfer(status: string, transferId: string, failureReason: string | null): string {
  if (status === 'confirmed') {
    return `Paid: transfer ${transferId} is confirmed.`;
  }
  if (status === 'pending') {
    return `Submitted: transfer ${transferId} is settling. Check it with get_payment_status("${transferId}"); do not pay again.`;
  }
  return `Transfer ${transferId} failed${failureReason ? ` (${failureReason})` : ''}: no money moved.`;
}

async function failed(
  error: unknown,
  base: { to: string; asset: string; idempotency_key: string },
  session: AgentSession,
): Promise<CallToolResult> {
  if (error instanceof CtsApiError && error.code === 'policy_violation') {
    const reason = error.reason ?? 'policy_violation';
    const words = explainRefusal(reason, base, await session.policyOrNull());
    return structured(
      {
        ...base,
        status: 'refused',
        reason,
        message: `Refused by the spend policy: ${words}. Nothing moved.`,
      },
      { isError: true },
    );
  }
  const { code, message } = describeFailure(error);
  return structured({ ...base, status: 'error', reason: code, message }, { isError: true });
}
