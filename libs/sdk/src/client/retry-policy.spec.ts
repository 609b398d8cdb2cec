import { isRetryableStatus, parseRetryAfter, retryDelay } from './retry-policy';

describe('retry policy', () => {
  it('retries only rate limiting and gateway failures', () => {
    const retryable = [200, 201, 400, 401, 402, 404, 409, 422, 429, 500, 501, 502, 503, 504].filter(
      isRetryableStatus,
    );
    expect(retryable).toEqual([429, 502, 503, 504]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.UTC(2025, 0, 1, 0, 0, 0);
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter(new Date(now - 5000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('backs off exponentially, jittered within the upper half of each step', () => {
    expect([0, 1, 2, 3].map((attempt) => retryDelay(attempt, 100, undefined, () => 0))).toEqual([
      50, 100, 200, 400,
    ]);
    expect([0, 1, 2, 3].map((attempt) => retryDelay(attempt, 100, undefined, () => 1))).toEqual([
      100, 200, 400, 800,
    ]);
  });

  it('prefers the server-given Retry-After over backoff', () => {
    expect(retryDelay(3, 100, 1500, () => 0.5)).toBe(1500);
  });
});
