import Redis from 'ioredis';
import { CacheStore } from './cache-store';

export class RedisCacheStore extends CacheStore {
  private readonly redis: Redis;

  constructor(url: string, keyPrefix = 'cts:') {
    super();
    this.redis = new Redis(url, {
      keyPrefix,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      lazyConnect: false,
    });
  }

  get(key: string): Promise<string | null> {
    return this.redis.get(key);
  }

  async set(
    key: string,
    value: string,
    options: { ttlSeconds: number; onlyIfAbsent?: boolean },
  ): Promise<boolean> {
    const reply = options.onlyIfAbsent
      ? await this.redis.set(key, value, 'EX', options.ttlSeconds, 'NX')
      : await this.redis.set(key, value, 'EX', options.ttlSeconds);
    return reply === 'OK';
  }

  async del(key: string): Promise<void> {
    await this.redis.del(key);
  }

  async increment(key: string, ttlSeconds: number): Promise<{ value: number; ttlSeconds: number }> {
    const results = await this.redis.multi().incr(key).expire(key, ttlSeconds, 'NX').ttl(key).exec();
    const value = Number(results?.[0]?.[1] ?? 0);
    const ttl = Number(results?.[2]?.[1] ?? ttlSeconds);
    return { value, ttlSeconds: ttl };
  }

  async hashIncrement(key: string, field: string, by: number): Promise<void> {
    await this.redis.hincrby(key, field, by);
  }

  async hashSet(key: string, field: string, value: string): Promise<void> {
    await this.redis.hset(key, field, value);
  }

  hashGetAll(key: string): Promise<Record<string, string>> {
    return this.redis.hgetall(key);
  }

  async hashTake(key: string): Promise<Record<string, string>> {
    const results = await this.redis.multi().hgetall(key).del(key).exec();
    return (results?.[0]?.[1] as Record<string, string> | undefined) ?? {};
  }

  async setAdd(key: string, member: string): Promise<void> {
    await this.redis.sadd(key, member);
  }

  setMembers(key: string): Promise<string[]> {
    return this.redis.smembers(key);
  }

  async setRemove(key: string, member: string): Promise<void> {
    await this.redis.srem(key, member);
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
