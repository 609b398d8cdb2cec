import { decodeX402Header } from './x402-headers.domain';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What an accepts entry asks for; its `extra` (a fresh blockhash per answer, say) is left out. */
function termsOf(entry: unknown): unknown {
  if (!isObject(entry)) {
    return entry;
  }
  const { scheme, network, asset, amount, payTo } = entry;
  return { scheme, network, asset, amount, payTo };
}

/**
 * Which x402 payment a call is, for its Idempotency-Key: the resource, the held transaction it pays
 * (if any) and the terms each accepts entry asks for. A retry fetches the resource again, so its
 * `received_at` is later and its 402 answer may be encoded anew or carry a new blockhash or `error`:
 * the same payment still. Another resource, payee, asset or amount is another payment (422).
 */
export function x402PaymentIdentity(body: unknown): unknown {
  if (!isObject(body)) {
    return body;
  }
  const { received_at: _receivedAt, payment_required: paymentRequired, ...rest } = body;
  const quote = typeof paymentRequired === 'string' ? decodeX402Header(paymentRequired) : paymentRequired;
  const accepts = isObject(quote) && Array.isArray(quote.accepts) ? quote.accepts.map(termsOf) : quote;
  return { ...rest, accepts };
}
