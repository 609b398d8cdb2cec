/** Answers worth another attempt: rate limited, or a gateway/upstream that may recover. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * The longest `Retry-After` a call waits for by default: the gateway's own rate limit asks for at
 * most its one-minute window. A longer ask (maintenance, a proxy) is not waited out inside a call.
 */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; `undefined` when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') {
    return undefined;
  }
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) {
    return Number(trimmed) * 1000;
  }
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Delay before retry number `attempt + 1`: `Retry-After` when the server gave one, else exponential
 * backoff with jitter (half fixed, half random) so many clients do not retry in lockstep.
 */
export function retryDelay(
  attempt: number,
  baseDelayMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) {
    return retryAfterMs;
  }
  const exponential = baseDelayMs * 2 ** attempt;
  return exponential / 2 + random() * (exponential / 2);
}
