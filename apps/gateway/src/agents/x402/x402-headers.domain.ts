/**
 * x402 v2 headers carry base64 of a JSON object (PAYMENT-REQUIRED, PAYMENT-RESPONSE). The decoded
 * object, or null when the value is not that.
 */
export function decodeX402Header(value: string): Record<string, unknown> | null {
  const trimmed = value.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) {
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.from(trimmed, 'base64').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The settling transaction's signature in a PAYMENT-RESPONSE header (`transaction`), or null. */
export function settledTransactionOf(paymentResponse: string): string | null {
  const decoded = decodeX402Header(paymentResponse);
  return decoded && typeof decoded.transaction === 'string' && decoded.transaction !== ''
    ? decoded.transaction
    : null;
}
