import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CtsApiError, x402FetchWithPayment, X402PendingApprovalError } from '@cts/sdk';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type AgentSession } from '../agent-session';
import { explainRefusal } from '../refusals.domain';
import { describeFailure, structured } from '../tool-results';

/** What a model sees of the resource's body: enough to use, bounded so one answer cannot flood it. */
const MAX_BODY_CHARS = 20_000;

const Input = {
  url: z
    .string()
    .url()
    .max(2048)
    .describe('The http(s) URL of the resource (an API that may answer 402 Payment Required)'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional().describe('HTTP method, default GET'),
  body: z.string().max(100_000).optional().describe('Request body (e.g. JSON text), for POST/PUT/PATCH'),
  content_type: z.string().max(200).optional().describe('Content-Type of the body, e.g. application/json'),
  approved_transaction_id: z
    .string()
    .max(64)
    .optional()
    .describe(
      'After the owner approved a held payment (pending_approval): its transaction_id, to pay it now',
    ),
  idempotency_key: z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'printable ASCII without spaces, at most 255 characters')
    .optional()
    .describe('Your key for this payment; pass the SAME key when you retry it: it is then paid only once'),
};

const Output = {
  status: z
    .enum(['ok', 'not_paid', 'pending_approval', 'refused', 'error'])
    .describe(
      'ok: the resource answered (after paying if it asked). not_paid: it answered without asking for payment. pending_approval: the payment waits for the owner, nothing paid. refused: the spend policy forbids it. error: not done.',
    ),
  message: z.string(),
  url: z.string(),
  http_status: z.number().optional().describe('The resource’s HTTP status'),
  response_body: z.string().optional().describe('The resource’s answer (text, truncated)'),
  payment_id: z.string().optional(),
  amount: z
    .string()
    .optional()
    .describe('What was paid (public on chain: x402 payments are public transfers)'),
  asset: z.string().optional(),
  pay_to: z.string().optional(),
  chain_signature: z.string().nullable().optional(),
  transaction_id: z.string().optional().describe('For pending_approval: approve, then call again with it'),
  expires_at: z.string().optional(),
  reason: z.string().optional(),
  idempotency_key: z.string(),
};

const DESCRIPTION = [
  "Fetch a URL, paying for it with x402 if it answers 402 Payment Required, from this agent's wallet and within its spend policy.",
  'The resource host must be allowed by the policy (get_policy shows allowed recipients). An x402 payment is a public transfer: its amount is visible on the chain.',
  '- "ok": the resource answered (response_body); if it was paid, amount and payment_id say what was paid;',
  '- "pending_approval": the price is above the owner\'s approval threshold; nothing was paid. Once approved (get_payment_status), call again with approved_transaction_id;',
  '- "refused": the policy forbids it (reason); "error": not done (message says why, e.g. quote_expired: just call again).',
].join('\n');

export function registerPayForResourceTool(server: McpServer, session: AgentSession): void {
  server.registerTool(
    'pay_for_resource',
    {
      title: 'Pay for a resource (x402)',
      description: DESCRIPTION,
      inputSchema: Input,
      outputSchema: Output,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    async ({ url, method, body, content_type, approved_transaction_id, idempotency_key }) => {
      const idempotencyKey = idempotency_key ?? randomUUID();
      const base = { url, idempotency_key: idempotencyKey };
      const init: RequestInit = {
        method: method ?? 'GET',
        ...(body === undefined ? {} : { body }),
        ...(content_type === undefined ? {} : { headers: { 'content-type': content_type } }),
      };
      try {
        const { response, payment } = await x402FetchWithPayment(session.client, url, init, {
          idempotencyKey,
          ...(approved_transaction_id === undefined
            ? {}
            : { approvedTransactionId: approved_transaction_id }),
        });
        const text = (await response.text()).slice(0, MAX_BODY_CHARS);
        const paid = payment
          ? {
              payment_id: payment.payment_id,
              amount: payment.amount,
              asset: payment.asset,
              pay_to: payment.pay_to,
              chain_signature: payment.chain_signature,
            }
          : {};
        return structured(
          {
            ...base,
            ...paid,
            status: payment ? 'ok' : 'not_paid',
            http_status: response.status,
            response_body: text,
            message: payment
              ? `Paid ${payment.amount} ${payment.asset} to ${payment.pay_to} (public on chain); the resource answered HTTP ${response.status}.`
              : `The resource answered HTTP ${response.status} without asking for payment.`,
          },
          { isError: !response.ok },
        );
      } catch (error) {
        return failed(error, base, session);
      }
    },
  );
}

async function failed(
  error: unknown,
  base: { url: string; idempotency_key: string },
  session: AgentSession,
): Promise<CallToolResult> {
  if (error instanceof X402PendingApprovalError) {
    const { transaction_id, expires_at } = error.transaction;
    return structured({
      ...base,
      status: 'pending_approval',
      transaction_id,
      expires_at,
      message: `The payment waits for the owner's approval until ${expires_at}; nothing was paid. Follow it with get_payment_status("${transaction_id}"); once approved, call pay_for_resource again with approved_transaction_id "${transaction_id}".`,
    });
  }
  if (error instanceof CtsApiError && error.code === 'policy_violation') {
    const reason = error.reason ?? 'policy_violation';
    const host = new URL(base.url).hostname;
    const words = explainRefusal(reason, { to: host, asset: 'USDC' }, await session.policyOrNull());
    return structured(
      {
        ...base,
        status: 'refused',
        reason,
        message: `Refused by the spend policy: ${words}. Nothing was paid.`,
      },
      { isError: true },
    );
  }
  const { code, message } = describeFailure(error);
  return structured({ ...base, status: 'error', reason: code, message }, { isError: true });
}
