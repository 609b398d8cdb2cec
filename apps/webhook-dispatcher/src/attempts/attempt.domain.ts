import { type WebhookAttemptError, type WebhookFailureReason } from '@cts/contracts';
import { retryAfterOf } from './retry-after.domain';
import { nextAttemptAt, type RetryPolicy } from './retry-policy.domain';

/** What one HTTP attempt came back with. `statusCode` is null when no response arrived in time. */
export interface AttemptOutcome {
  statusCode: number | null;
  /** At most RESPONSE_BODY_LIMIT_BYTES of the response body. */
  responseBody: string | null;
  /** The raw `Retry-After` header of the response, if any (honoured on 429 and 503 only). */
  retryAfter: string | null;
  /** Why no usable response came, as a stable code; `error` has the details. */
  errorCode: WebhookAttemptError | null;
  /** Why no usable response came: timeout, refused address, TLS, connection. */
  error: string | null;
  durationMs: number;
}

/** What we keep of a receiver's answer, per attempt (the log never returns it: it could hold secrets). */
export const RESPONSE_BODY_LIMIT_BYTES = 1024;

/** The receiver says the endpoint is gone for good: retrying cannot help. */
export const GONE = 410;

/** Success is a 2xx; anything else (3xx included: redirects are not followed) is retried. */
export function isSuccess(outcome: Pick<AttemptOutcome, 'statusCode'>): boolean {
  return outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
}

export type FailureReason = WebhookFailureReason;

export interface AttemptResult {
  status: 'succeeded' | 'pending' | 'failed';
  attemptCount: number;
  firstAttemptAt: Date;
  nextAttemptAt: Date | null;
  /** Set when `status` is `failed`. */
  failureReason: FailureReason | null;
}

/** What `afterAttempt` reads of an outcome. */
export type AttemptAnswer = Pick<AttemptOutcome, 'statusCode'> &
  Partial<Pick<AttemptOutcome, 'retryAfter' | 'durationMs'>>;

/**
 * The delivery after an attempt made at `at` (and ended `durationMs` later): done, due again later
 * (the schedule's delay after its end, within the window from the first attempt's end), or failed
 * for good. A `410`
 * ends it at once; a `Retry-After` on 429/503 can only delay the next attempt (within the window).
 */
export function afterAttempt(
  delivery: { attemptCount: number; firstAttemptAt: Date | null },
  outcome: AttemptAnswer,
  at: Date,
  policy: RetryPolicy,
  random: () => number,
): AttemptResult {
  const attemptCount = delivery.attemptCount + 1;
  // The schedule and the window count from an attempt's end, so a receiver sees at least the delay
  // between two requests, however long the first took to reach it (a new connection's handshake).
  const endedAt = new Date(at.getTime() + (outcome.durationMs ?? 0));
  const firstAttemptAt = delivery.firstAttemptAt ?? endedAt;
  const done = (status: 'succeeded' | 'failed', failureReason: FailureReason | null): AttemptResult => ({
    status,
    attemptCount,
    firstAttemptAt,
    nextAttemptAt: null,
    failureReason,
  });
  if (isSuccess(outcome)) {
    return done('succeeded', null);
  }
  if (outcome.statusCode === GONE) {
    return done('failed', 'endpoint_gone');
  }
  const next = nextAttemptAt(
    policy,
    { attemptsMade: attemptCount, firstAttemptAt, lastAttemptAt: endedAt },
    random,
    retryAfterOf(outcome, at),
  );
  return next
    ? { status: 'pending', attemptCount, firstAttemptAt, nextAttemptAt: next, failureReason: null }
    : done('failed', 'retries_exhausted');
}

/**
 * A `webhook.test` sent to a disabled endpoint checks it once, on request: a failure is final, not
 * retried for 24 h against an endpoint its owner turned off. Other deliveries keep their schedule.
 */
export function withoutRetry(result: AttemptResult): AttemptResult {
  return result.status === 'pending'
    ? { ...result, status: 'failed', nextAttemptAt: null, failureReason: 'retries_exhausted' }
    : result;
}

/** A response body as stored: at most the limit in bytes, valid text for Postgres (no NUL). */
export function truncateResponseBody(bytes: Uint8Array): string {
  return Buffer.from(bytes.subarray(0, RESPONSE_BODY_LIMIT_BYTES)).toString('utf8').replaceAll('\u0000', '');
}
