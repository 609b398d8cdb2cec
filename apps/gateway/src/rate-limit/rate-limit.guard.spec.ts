import { MemoryCacheStore } from '@cts/platform';
import request from 'supertest';
import { type GatewaySettings } from '../gateway.settings';
import { bearer, seedAccount, startTestGateway, type TestGateway } from '../testing/test-gateway';
import { RateLimiter } from './rate-limiter';

describe('rate limit per API key', () => {
  let gateway: TestGateway;

  beforeEach(async () => {
    // A frozen clock: the test must not straddle two windows.
    const frozen = Date.now();
    gateway = await startTestGateway({ env: { RATE_LIMIT_PER_MINUTE: '3' }, tuning: { now: () => frozen } });
  });

  afterEach(async () => {
    await gateway.close();
  });

  it('answers 429 rate_limited with Retry-After once a key used its budget for the minute', async () => {
    const alice = seedAccount(gateway.accounts);
    const key = bearer(alice.keys.test.secret);
    for (let i = 0; i < 3; i++) {
      await request(gateway.url).get('/v1/accounts/me').set(key).expect(200);
    }

    const res = await request(gateway.url).get('/v1/accounts/me').set(key).expect(429);

    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(res.body).toEqual({
      error: {
        code: 'rate_limited',
        message: expect.stringContaining('3 requests per minute'),
        request_id: res.headers['x-request-id'],
      },
    });
  });

  it('counts each key on its own', async () => {
    const alice = seedAccount(gateway.accounts);
    for (let i = 0; i < 3; i++) {
      await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.test.secret)).expect(200);
    }

    const res = await request(gateway.url)
      .get('/v1/accounts/me')
      .set(bearer(alice.keys.live.secret))
      .expect(200);

    expect(res.headers['x-ratelimit-limit']).toBe('3');
    expect(res.headers['x-ratelimit-remaining']).toBe('2');
  });
});

describe('rate limit with the shared cache', () => {
  /** Logs what reaches the cache, and when a read is answered. */
  class RecordingCache extends MemoryCacheStore {
    readonly log: string[] = [];

    override async get(key: string): Promise<string | null> {
      const kind = key.slice(0, key.indexOf(':'));
      this.log.push(`read ${kind}`);
      const value = await super.get(key);
      this.log.push(`answered ${kind}`);
      return value;
    }

    override increment(key: string, ttlSeconds: number): Promise<{ value: number; ttlSeconds: number }> {
      this.log.push(`count ${key.slice(0, key.indexOf(':'))}`);
      return super.increment(key, ttlSeconds);
    }
  }

  it('counts the request while the key is read: one round trip to the cache, not two', async () => {
    const cache = new RecordingCache();
    const gateway = await startTestGateway({ cache, env: { RATE_LIMIT_PER_MINUTE: '100' } });
    try {
      const alice = seedAccount(gateway.accounts);
      const key = bearer(alice.keys.test.secret);
      await request(gateway.url).get('/v1/accounts/me').set(key).expect(200);
      cache.log.length = 0;

      const res = await request(gateway.url).get('/v1/accounts/me').set(key).expect(200);

      expect(res.headers['x-ratelimit-remaining']).toBe('98');
      expect(cache.log.slice(0, 4)).toEqual([
        'count ratelimit',
        'read apikey-revoked',
        'read apikey',
        'answered apikey-revoked',
      ]);
    } finally {
      await gateway.close();
    }
  });
});

describe('RateLimiter', () => {
  it('starts a fresh budget with each minute', async () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 50);
    const settings = { rateLimitPerMinute: 2, now: () => now } as GatewaySettings;
    const limiter = new RateLimiter(new MemoryCacheStore(() => now), settings);

    expect((await limiter.hit('key_1')).allowed).toBe(true);
    expect((await limiter.hit('key_1')).allowed).toBe(true);
    const refused = await limiter.hit('key_1');
    expect(refused).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 10 });

    now += 10_000;
    expect(await limiter.hit('key_1')).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
  });
});
