import { parseRetryAfter, retryAfterOf } from './retry-after.domain';

const now = new Date('2026-03-01T12:00:00.000Z');

describe('parseRetryAfter', () => {
  it('reads delta-seconds from when the answer came', () => {
    expect(parseRetryAfter('120', now)).toEqual(new Date('2026-03-01T12:02:00.000Z'));
    expect(parseRetryAfter(' 0 ', now)).toEqual(now);
  });

  it('reads an HTTP-date in each of the three forms RFC 9110 allows, as GMT', () => {
    const expected = new Date('2026-03-01T12:05:30.000Z');
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:05:30 GMT', now)).toEqual(expected);
    expect(parseRetryAfter('Sunday, 01-Mar-26 12:05:30 GMT', now)).toEqual(expected);
    expect(parseRetryAfter('Sun Mar  1 12:05:30 2026', now)).toEqual(expected);
  });

  it('caps an absurd number of seconds at a year (the retry window clamps it anyway)', () => {
    expect(parseRetryAfter('9'.repeat(400), now)?.getTime()).toBe(now.getTime() + 366 * 24 * 3600 * 1000);
  });

  it.each([undefined, null, '', 'soon', '-5', '1.5', '2026-03-01T12:05:30Z', '+30', 'Sun, 99 Foo 2026'])(
    'ignores %p',
    (value) => {
      expect(parseRetryAfter(value, now)).toBeNull();
    },
  );
});

describe('retryAfterOf', () => {
  it('honours Retry-After on 429 and 503, counted from the end of the attempt', () => {
    expect(retryAfterOf({ statusCode: 429, retryAfter: '10', durationMs: 500 }, now)).toEqual(
      new Date(now.getTime() + 10_500),
    );
    expect(retryAfterOf({ statusCode: 503, retryAfter: 'Sun, 01 Mar 2026 13:00:00 GMT' }, now)).toEqual(
      new Date('2026-03-01T13:00:00.000Z'),
    );
  });

  it.each([500, 502, 504, 302, 410, null])('ignores it on %p', (statusCode) => {
    expect(retryAfterOf({ statusCode, retryAfter: '60' }, now)).toBeNull();
  });
});
