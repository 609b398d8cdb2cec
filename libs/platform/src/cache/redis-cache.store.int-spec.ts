import { randomUUID } from 'node:crypto';
import { CacheUnavailableError } from './cache-store';
import { RedisCacheStore } from './redis-cache.store';

describe('RedisCacheStore against Redis', () => {
  let store: RedisCacheStore;

  beforeAll(() => {
    const url = process.env.REDIS_URL;
    if (!url) {
      throw new Error('REDIS_URL is not set: run through deploy/local/with-infra.mjs');
    }
    store = new RedisCacheStore(url, `cts-test-${randomUUID()}:`);
  });
  afterAll(() => store.close());

  it('tells an unreachable Redis (an outage) from an error reply (a fault of the command)', async () => {
    const unreachable = new RedisCacheStore('redis://127.0.0.1:1', 'cts-test-down:');
    try {
      await expect(unreachable.get('key')).rejects.toBeInstanceOf(CacheUnavailableError);
      await expect(unreachable.increment('key', 60)).rejects.toBeInstanceOf(CacheUnavailableError);
    } finally {
      unreachable.close().catch(() => undefined);
    }
    await store.set('text', 'not a hash', { ttlSeconds: 60 });
    const wrongType = store.hashIncrement('text', 'field', 1);
    await expect(wrongType).rejects.toThrow(/WRONGTYPE/);
    await expect(wrongType).rejects.not.toBeInstanceOf(CacheUnavailableError);
  });

  it('sets one field and increments another in the same hash, atomically for a concurrent take', async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.hashSetAndIncrement('usage', { field: 'last', value: `t${i}` }, { field: 'count', by: 1 }),
      ),
    );
    const taken = await store.hashTake('usage');
    expect(taken).toEqual({ last: 't49', count: '50' });
    expect(await store.hashGetAll('usage')).toEqual({});
  });

  it('counts with the first ttl only: a later count neither resets nor extends it', async () => {
    expect(await store.increment('windowed', 30)).toEqual({ value: 1, ttlSeconds: 30 });
    const second = await store.increment('windowed', 300);
    expect(second.value).toBe(2);
    expect(second.ttlSeconds).toBeGreaterThan(0);
    expect(second.ttlSeconds).toBeLessThanOrEqual(30);
  });

  it('answers commands issued in one tick in order, each to its own caller', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    await Promise.all(keys.map((key) => store.set(key, `v-${key}`, { ttlSeconds: 60 })));
    const [values, counters] = await Promise.all([
      Promise.all(keys.map((key) => store.get(key))),
      Promise.all(keys.map(() => store.increment('counter', 60))),
    ]);
    expect(values).toEqual(keys.map((key) => `v-${key}`));
    expect(counters.map((c) => c.value).sort((a, b) => a - b)).toEqual(keys.map((_, i) => i + 1));
    expect(await store.set('k0', 'other', { ttlSeconds: 60, onlyIfAbsent: true })).toBe(false);
  });
});
