import { afterAttempt, isSuccess, truncateResponseBody } from './attempt.domain';
import { type RetryPolicy } from './retry-policy.domain';

const policy: RetryPolicy = { delaysMs: [1000, 2000, 4000], windowMs: 24 * 3600 * 1000, jitterRatio: 0.1 };
const at = new Date('2026-01-01T00:00:00.000Z');

describe('isSuccess', () => {
  it.each([
    [200, true],
    [202, true],
    [204, true],
    [299, true],
    [301, false],
    [302, false],
    [400, false],
    [500, false],
    [null, false],
  ])('status %p → %p', (statusCode, expected) => {
    expect(isSuccess({ statusCode })).toBe(expected);
  });
});

describe('afterAttempt', () => {
  it('finishes on a 2xx, remembering the first attempt time', () => {
    expect(
      afterAttempt({ attemptCount: 0, firstAttemptAt: null }, { statusCode: 200 }, at, policy, () => 0.5),
    ).toEqual({
      status: 'succeeded',
      attemptCount: 1,
      firstAttemptAt: at,
      nextAttemptAt: null,
    });
  });

  it('schedules the next try after a failure, from the attempt time', () => {
    const first = new Date(at.getTime() - 1000);
    expect(
      afterAttempt({ attemptCount: 1, firstAttemptAt: first }, { statusCode: 500 }, at, policy, () => 0.5),
    ).toEqual({
      status: 'pending',
      attemptCount: 2,
      firstAttemptAt: first,
      nextAttemptAt: new Date(at.getTime() + 2000),
    });
  });

  it('fails for good once the window has passed', () => {
    const first = new Date(at.getTime() - policy.windowMs);
    expect(
      afterAttempt({ attemptCount: 9, firstAttemptAt: first }, { statusCode: null }, at, policy, () => 0.5),
    ).toMatchObject({
      status: 'failed',
      attemptCount: 10,
      nextAttemptAt: null,
    });
  });
});

describe('truncateResponseBody', () => {
  it('keeps at most 1 KB, as text Postgres accepts', () => {
    expect(truncateResponseBody(Buffer.from('a'.repeat(4000)))).toHaveLength(1024);
    expect(truncateResponseBody(Buffer.from('ok\u0000!'))).toBe('ok!');
  });
});
