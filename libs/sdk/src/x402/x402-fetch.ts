import { type CtsClient } from '../client/cts-client';
import {
  type HeldX402Transaction,
  type X402FetchOptions,
  type X402FetchResult,
  type X402PayInput,
  type X402Payment,
  type X402PayResult,
  X402PendingApprovalError,
} from './x402-types';

const PAYMENT_REQUIRED = 'PAYMENT-REQUIRED';
const PAYMENT_SIGNATURE = 'PAYMENT-SIGNATURE';
const PAYMENT_RESPONSE = 'PAYMENT-RESPONSE';

/** Pays a 402 answer through the service (`POST /v1/agents/x402/payments`): the agent's policy applies. */
export async function payX402(
  client: CtsClient,
  input: X402PayInput,
  options: { idempotencyKey?: string } = {},
): Promise<X402PayResult> {
  const { status, body, replayed } = await client.request<X402Payment | HeldX402Transaction>({
    method: 'POST',
    path: '/v1/agents/x402/payments',
    body: input,
    ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
  });
  if (status === 202 || body.status === 'pending_approval') {
    return { kind: 'pending_approval', transaction: body as HeldX402Transaction };
  }
  return { kind: 'payment', payment: body, replayed };
}

/**
 * `fetch` for agents that pay per request (x402 v2): a `402 Payment Required` answer is paid through
 * the service — inside the agent's spend policy — and the request is sent again with the
 * PAYMENT-SIGNATURE header. Throws `X402PendingApprovalError` when the payment waits for the owner
 * (never waits silently) and `CtsApiError` when the policy refuses it (`policy_violation` with its
 * `reason`) or the quote expired (`quote_expired`). A body that is a stream cannot be sent twice:
 * use a string, bytes or FormData. Redirects are not followed (`redirect: 'manual'`): a 3xx answer is
 * returned as it is, unpaid, so only the URL asked for is ever paid or sent the payment.
 */
export async function x402Fetch(
  client: CtsClient,
  input: string | URL | Request,
  init?: RequestInit,
  options: X402FetchOptions = {},
): Promise<Response> {
  return (await x402FetchWithPayment(client, input, init, options)).response;
}

/** `x402Fetch`, also telling which payment (if any) was made. */
export async function x402FetchWithPayment(
  client: CtsClient,
  input: string | URL | Request,
  init: RequestInit = {},
  options: X402FetchOptions = {},
): Promise<X402FetchResult> {
  const send = options.fetch ?? ((i: string | URL | Request, r?: RequestInit) => globalThis.fetch(i, r));
  const receivedAt = new Date().toISOString();
  // A redirect could lead to a 402 of another host than the one the policy is checked against, or
  // carry the signed payment there: the URL asked for is the only one spoken to.
  const first = await send(input, { ...init, redirect: 'manual' });
  if (first.status !== 402) {
    return { response: first, payment: null, replayed: false };
  }
  const paymentRequired = await paymentRequiredOf(first);
  if (paymentRequired === null) {
    return { response: first, payment: null, replayed: false };
  }
  const paid = await payX402(
    client,
    {
      payment_required: paymentRequired,
      resource: urlOf(input),
      received_at: receivedAt,
      ...(options.approvedTransactionId === undefined
        ? {}
        : { approved_transaction_id: options.approvedTransactionId }),
    },
    options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey },
  );
  if (paid.kind === 'pending_approval') {
    throw new X402PendingApprovalError(paid.transaction);
  }
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  headers.set(PAYMENT_SIGNATURE, paid.payment.payment_signature);
  const response = await send(input, { ...init, headers, redirect: 'manual' });
  const settled = await reportSettlement(client, paid.payment, response);
  return { response, payment: settled ?? paid.payment, replayed: paid.replayed };
}

/**
 * Tells the service the facilitator settled (PAYMENT-RESPONSE), so it emits `agent.x402.paid`. The
 * service checks the claim against the ledger; a failed report does not fail the caller's request.
 */
async function reportSettlement(
  client: CtsClient,
  payment: X402Payment,
  response: Response,
): Promise<X402Payment | null> {
  const paymentResponse = response.headers.get(PAYMENT_RESPONSE);
  if (!response.ok || paymentResponse === null) {
    return null;
  }
  try {
    const { body } = await client.request<X402Payment>({
      method: 'POST',
      path: `/v1/agents/x402/payments/${encodeURIComponent(payment.payment_id)}/settlement`,
      body: { payment_response: paymentResponse },
    });
    return body;
  } catch {
    return null;
  }
}

/** The 402 answer: the v2 PAYMENT-REQUIRED header, else a JSON body that looks like one; null otherwise. */
async function paymentRequiredOf(response: Response): Promise<string | Record<string, unknown> | null> {
  const header = response.headers.get(PAYMENT_REQUIRED);
  if (header !== null && header !== '') {
    return header;
  }
  try {
    const body: unknown = await response.clone().json();
    return typeof body === 'object' && body !== null && 'accepts' in body ? body : null;
  } catch {
    return null;
  }
}

function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') {
    return input;
  }
  return input instanceof URL ? input.toString() : input.url;
}
