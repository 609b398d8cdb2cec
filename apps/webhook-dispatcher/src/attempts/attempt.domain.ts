import { nextAttemptAt, type RetryPolicy } from './retry-policy.domain';

/** What one HTTP attempt came back with. `statusCode` is null when no response arrived in time. */
export interface AttemptOutcome {
  statusCode: number | null;
  /** At most RESPONSE_BODY_LIMIT_BYTES of the response body. */
  responseBody: string | null;
  /** Why no usable response came: timeout, refused address, TLS, connection. */
  error: string | null;
  durationMs: number;
}

/** What we keep of a receiver's answer, per attempt. */
export const RESPONSE_BODY_LIMIT_BYTES = 1024;

/** Success is a 2xx; anything else (3xx included: redirects are not followed) is retried. */
export function isSuccess(outcome: Pick<AttemptOutcome, 'statusCode'>): boolean {
  return outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
}

export interface AttemptResult {
  status: 'succeeded' | 'pending' | 'failed';
  attemptCount: number;
  firstAttemptAt: Date;
  nextAttemptAt: Date | null;
}

/** The delivery after an attempt made at `at`: done, due again later, or failed for good. */
export function afterAttempt(
  delivery: { attemptCount: number; firstAttemptAt: Date | null },
  outcome: Pick<AttemptOutcome, 'statusCode'>,
  at: Date,
  policy: RetryPolicy,
  random: () => number,
): AttemptResult {
  const attemptCount = delivery.attemptCount + 1;
  const firstAttemptAt = delivery.firstAttemptAt ?? at;
  if (isSuccess(outcome)) {
    return { status: 'succeeded', attemptCount, firstAttemptAt, nextAttemptAt: null };
  }
  const next = nextAttemptAt(
    policy,
    { attemptsMade: attemptCount, firstAttemptAt, lastAttemptAt: at },
    random,
  );
  return { status: next ? 'pending' : 'failed', attemptCount, firstAttemptAt, nextAttemptAt: next };
}

/** A response body as stored: at most the limit in bytes, valid text for Postgres (no NUL). */
export function truncateResponseBody(bytes: Uint8Array): string {
  return Buffer.from(bytes.subarray(0, RESPONSE_BODY_LIMIT_BYTES)).toString('utf8').replaceAll('\u0000', '');
}
