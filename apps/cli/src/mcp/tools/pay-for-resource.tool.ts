import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CtsApiError, type X402Payment, x402FetchWithPayment, X402PendingApprovalError } from '@cts/sdk';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type AgentSession } from '../agent-session';
import { explainRefusal, refusedQuoteAsset } from '../refusals.domain';
import { checkResourceUrl, type ResourceCheck } from '../resource-url.domain';
import { describeFailure, resourceFetchFailure, structured } from '../tool-results';

/** What a model sees of the resource's body: enough to use, bounded so one answer cannot flood it. */
const MAX_BODY_CHARS = 20_000;

const Input = {
  url: z
    .string()
    .url()
    .max(2048)
    .regex(/^https?:\/\//i, 'must be an http:// or https:// URL')
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
      'ok: the resource answered (after paying if it asked). not_paid: it answered without asking for payment. pending_approval: the payment waits for the owner, nothing paid. refused: the spend policy forbids it (recipient_not_allowed: the host is not allowed, nothing was sent). error: not done (payment_not_accepted: a payment was signed but the resource did not take it; payment_already_made: this idempotency_key paid in an earlier call, nothing new was paid; https_required: nothing was sent; resource_unreachable).',
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
  'The URL\'s host must be allowed by the policy\'s allowed recipients (get_policy shows them), checked before any request is sent: a domain or *.domain pattern, or "*" (which does not reach loopback or private addresses: those must be named). https only; plain http only to a loopback host. An x402 payment is a public transfer: its amount is visible on the chain.',
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
        await session.requireAgent();
        // Before any request: the URL is the model's to choose, and a prompt could aim it inward.
        // A policy without the field (the API always sends it) allows nothing, rather than anything.
        const allowed = checkResourceUrl(new URL(url), (await session.policy()).allowed_recipients ?? []);
        if (!allowed.ok) {
          return notSent(allowed, base);
        }
        const { response, payment, replayed } = await x402FetchWithPayment(session.client, url, init, {
          idempotencyKey,
          ...(approved_transaction_id === undefined
            ? {}
            : { approvedTransactionId: approved_transaction_id }),
        });
        const text = (await response.text()).slice(0, MAX_BODY_CHARS);
        const answered = { ...base, http_status: response.status, response_body: text };
        if (!payment) {
          return structured(
            {
              ...answered,
              status: 'not_paid',
              message: notPaidMessage(response),
            },
            { isError: !response.ok },
          );
        }
        return replayed && !response.ok
          ? alreadyMade(answered, payment)
          : answerAfterPayment(answered, payment, response);
      } catch (error) {
        return failed(error, base, session);
      }
    },
  );
}

function notSent(
  check: Exclude<ResourceCheck, { ok: true }>,
  base: { url: string; idempotency_key: string },
) {
  return structured(
    {
      ...base,
      status: check.reason === 'recipient_not_allowed' ? 'refused' : 'error',
      reason: check.reason,
      message: `Not sent: ${check.why}. No request went to the resource and nothing was paid.`,
    },
    { isError: true },
  );
}

function notPaidMessage(response: Response): string {
  const location = response.headers.get('location');
  return response.status >= 300 && response.status < 400
    ? `The resource answered HTTP ${response.status}, a redirect${location ? ` to ${location}` : ''}: redirects are not followed, so nothing was paid. Call again with the URL it names if that is the resource you mean to use.`
    : `The resource answered HTTP ${response.status} without asking for payment.`;
}

/**
 * Paid only when the facilitator settled it or the resource served the request; a resource that still
 * answers 402 (or fails) did not take the signed payment, and the model must not believe it paid.
 */
function answerAfterPayment(
  answered: { url: string; idempotency_key: string; http_status: number; response_body: string },
  payment: X402Payment,
  response: Response,
): CallToolResult {
  const what = {
    payment_id: payment.payment_id,
    amount: payment.amount,
    asset: payment.asset,
    pay_to: payment.pay_to,
    chain_signature: payment.chain_signature,
  };
  if (payment.status === 'settled' || response.ok) {
    return structured(
      {
        ...answered,
        ...what,
        status: 'ok',
        message: `Paid ${payment.amount} ${payment.asset} to ${payment.pay_to} (public on chain); the resource answered HTTP ${response.status}.`,
      },
      { isError: !response.ok },
    );
  }
  return structured(
    {
      ...answered,
      ...what,
      status: 'error',
      reason: response.status === 402 ? 'payment_not_accepted' : 'resource_failed',
      message: `A payment of ${payment.amount} ${payment.asset} to ${payment.pay_to} was signed (${payment.payment_id}), but the resource answered HTTP ${response.status} and did not confirm it settled: it did not take the payment. To present the same payment again, call again with the same idempotency_key; do not pay with a new key.`,
    },
    { isError: true },
  );
}

/**
 * The same idempotency_key again, after its payment was made: the service hands back that payment as
 * it was then (`signed`; whether it settled since, the replay does not say), nothing new is signed,
 * and a resource that already took it refuses it now. Not "not taken": the earlier call presented it.
 */
function alreadyMade(
  answered: { url: string; idempotency_key: string; http_status: number; response_body: string },
  payment: X402Payment,
): CallToolResult {
  return structured(
    {
      ...answered,
      payment_id: payment.payment_id,
      amount: payment.amount,
      asset: payment.asset,
      pay_to: payment.pay_to,
      status: 'error',
      reason: 'payment_already_made',
      message: `The payment for this idempotency_key was already made by an earlier call: ${payment.payment_id}, ${payment.amount} ${payment.asset} to ${payment.pay_to} (public on chain). Nothing new was paid. Presented again, it was answered HTTP ${answered.http_status}: an x402 payment buys one request, so if the earlier call got the resource's answer, that was what it paid for (if it was told payment_not_accepted, the resource never took it). To use the resource again, call with a new idempotency_key: that is a new payment.`,
    },
    { isError: true },
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
    const policy = await session.policyOrNull();
    const words = explainRefusal(reason, { to: host, asset: refusedQuoteAsset(reason, policy) }, policy);
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
  const unreachable = resourceFetchFailure(error);
  if (unreachable !== null) {
    return structured(
      {
        ...base,
        status: 'error',
        reason: 'resource_unreachable',
        message: `The resource ${base.url} could not be reached (${unreachable}). Check the URL, or retry later; if a payment was signed for it, calling again with the same idempotency_key presents that payment instead of paying again.`,
      },
      { isError: true },
    );
  }
  const { code, message } = describeFailure(error);
  return structured({ ...base, status: 'error', reason: code, message }, { isError: true });
}
