/**
 * `Retry-After` (RFC 9110 §10.2.3) from a receiver that is overloaded (`503`) or rate-limiting us
 * (`429`, RFC 6585). It can only push the next attempt later than the schedule, never sooner, and
 * never past the retry window: see `nextAttemptAt`.
 */
export const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** A receiver asking for more than this is clamped by the retry window anyway. */
const MAX_DELAY_SECONDS = 366 * 24 * 3600;
const DELTA_SECONDS = /^\d+$/;
/** asctime (`Sun Nov  6 08:49:37 1994`) carries no zone but means GMT; `Date.parse` would read it as local time. */
const ASCTIME = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/;
/** IMF-fixdate and the obsolete RFC 850 form both start with a day name. */
const HTTP_DATE = /^[A-Za-z]{3,9}, /;

/**
 * The time a `Retry-After` value names: delta-seconds counted from `receivedAt`, or an HTTP-date.
 * Null when absent or unreadable (then only the schedule counts).
 */
export function parseRetryAfter(value: string | null | undefined, receivedAt: Date): Date | null {
  const text = value?.trim() ?? '';
  if (DELTA_SECONDS.test(text)) {
    return new Date(receivedAt.getTime() + Math.min(Number(text), MAX_DELAY_SECONDS) * 1000);
  }
  const date = ASCTIME.test(text) ? `${text} GMT` : HTTP_DATE.test(text) ? text : null;
  const ms = date === null ? NaN : Date.parse(date);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** When the receiver asked us to come back, if this answer may ask that at all. */
export function retryAfterOf(
  answer: { statusCode: number | null; retryAfter?: string | null; durationMs?: number },
  attemptedAt: Date,
): Date | null {
  if (answer.statusCode === null || !RETRY_AFTER_STATUSES.has(answer.statusCode)) {
    return null;
  }
  return parseRetryAfter(answer.retryAfter, new Date(attemptedAt.getTime() + (answer.durationMs ?? 0)));
}
