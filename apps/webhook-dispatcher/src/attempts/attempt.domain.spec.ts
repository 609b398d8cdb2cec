import { afterAttempt, isSuccess, truncateResponseBody, withoutRetry } from './attempt.domain';
import { type RetryPolicy } from './retry-policy.domain';

const policy: RetryPolicy = { delaysMs: [1000, 2000, 4000], windowMs: 24 * 3600 * 1000, jitterRatio: 0.1 };
const at = new Date('2026-01-01T00:00:00.000Z');
const noJitter = () => 0.5;

describe('isSuccess', () => {
  it.each([
    [200, true],
    [202, true],
    [204, true],
    [299, true],
    [301, false],
    [302, false],
    [400, false],
    [410, false],
    [500, false],
    [null, false],
  ])('status %p → %p', (statusCode, expected) => {
    expect(isSuccess({ statusCode })).toBe(expected);
  });
});

describe('afterAttempt', () => {
  const first = new Date(at.getTime() - 1000);
  const second = { attemptCount: 1, firstAttemptAt: first };

  it('finishes on a 2xx, remembering the first attempt time', () => {
    expect(
      afterAttempt({ attemptCount: 0, firstAttemptAt: null }, { statusCode: 200 }, at, policy, noJitter),
    ).toEqual({
      status: 'succeeded',
      attemptCount: 1,
      firstAttemptAt: at,
      nextAttemptAt: null,
      failureReason: null,
    });
  });

  it('schedules the next try after a failure, from the attempt time', () => {
    expect(afterAttempt(second, { statusCode: 500 }, at, policy, noJitter)).toEqual({
      status: 'pending',
      attemptCount: 2,
      firstAttemptAt: first,
      nextAttemptAt: new Date(at.getTime() + 2000),
      failureReason: null,
    });
  });

  it('counts the delay from the end of an attempt that took a while, and the window from the first one’s end', () => {
    expect(
      afterAttempt(second, { statusCode: 500, durationMs: 300 }, at, policy, noJitter).nextAttemptAt,
    ).toEqual(new Date(at.getTime() + 300 + 2000));
    expect(
      afterAttempt(
        { attemptCount: 0, firstAttemptAt: null },
        { statusCode: 500, durationMs: 300 },
        at,
        policy,
        noJitter,
      ),
    ).toMatchObject({
      firstAttemptAt: new Date(at.getTime() + 300),
      nextAttemptAt: new Date(at.getTime() + 1300),
    });
  });
  it('fails for good once the window has passed, saying the retries ran out', () => {
    const longAgo = new Date(at.getTime() - policy.windowMs);
    expect(
      afterAttempt({ attemptCount: 9, firstAttemptAt: longAgo }, { statusCode: null }, at, policy, noJitter),
    ).toEqual({
      status: 'failed',
      attemptCount: 10,
      firstAttemptAt: longAgo,
      nextAttemptAt: null,
      failureReason: 'retries_exhausted',
    });
  });

  it('stops at once on 410 Gone, on the first attempt as on any other', () => {
    for (const delivery of [{ attemptCount: 0, firstAttemptAt: null }, second]) {
      expect(
        afterAttempt(delivery, { statusCode: 410, retryAfter: '5' }, at, policy, noJitter),
      ).toMatchObject({
        status: 'failed',
        attemptCount: delivery.attemptCount + 1,
        nextAttemptAt: null,
        failureReason: 'endpoint_gone',
      });
    }
  });

  it('waits for a Retry-After in seconds on 429 when it is later than the schedule', () => {
    expect(
      afterAttempt(second, { statusCode: 429, retryAfter: '30', durationMs: 200 }, at, policy, noJitter),
    ).toMatchObject({ status: 'pending', nextAttemptAt: new Date(at.getTime() + 30_200) });
  });

  it('waits for a Retry-After date on 503', () => {
    expect(
      afterAttempt(
        second,
        { statusCode: 503, retryAfter: 'Thu, 01 Jan 2026 00:01:00 GMT' },
        at,
        policy,
        noJitter,
      ),
    ).toMatchObject({ status: 'pending', nextAttemptAt: new Date('2026-01-01T00:01:00.000Z') });
  });

  it('keeps the schedule when Retry-After asks for less, or comes with another status', () => {
    const scheduled = new Date(at.getTime() + 2000);
    expect(
      afterAttempt(second, { statusCode: 503, retryAfter: '0' }, at, policy, noJitter).nextAttemptAt,
    ).toEqual(scheduled);
    expect(
      afterAttempt(second, { statusCode: 500, retryAfter: '60' }, at, policy, noJitter).nextAttemptAt,
    ).toEqual(scheduled);
  });

  it('clamps a Retry-After past the 24 h window to a final try at its end', () => {
    expect(
      afterAttempt(second, { statusCode: 429, retryAfter: String(48 * 3600) }, at, policy, noJitter),
    ).toMatchObject({ status: 'pending', nextAttemptAt: new Date(first.getTime() + policy.windowMs) });
  });
});

describe('truncateResponseBody', () => {
  it('keeps at most 1 KB, as text Postgres accepts', () => {
    expect(truncateResponseBody(Buffer.from('a'.repeat(4000)))).toHaveLength(1024);
    expect(truncateResponseBody(Buffer.from('ok\u0000!'))).toBe('ok!');
  });
});

describe('withoutRetry (a test sent to a disabled endpoint)', () => {
  it('makes a retry due later a final failure and leaves an ended delivery as it is', () => {
    const first = { attemptCount: 0, firstAttemptAt: null };
    const failed = afterAttempt(first, { statusCode: 500 }, at, policy, noJitter);
    const succeeded = afterAttempt(first, { statusCode: 204 }, at, policy, noJitter);
    const gone = afterAttempt(first, { statusCode: 410 }, at, policy, noJitter);

    expect(failed.status).toBe('pending');
    expect(withoutRetry(failed)).toEqual({
      ...failed,
      status: 'failed',
      nextAttemptAt: null,
      failureReason: 'retries_exhausted',
    });
    expect(withoutRetry(succeeded)).toEqual(succeeded);
    expect(withoutRetry(gone)).toEqual(gone);
  });
});
