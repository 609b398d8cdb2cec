import { CacheStore } from './cache-store';

interface Entry {
  value: string;
  expiresAt: number;
}

export class MemoryCacheStore extends CacheStore {
  private readonly values = new Map<string, Entry>();
  private readonly hashes = new Map<string, Map<string, string>>();
  private readonly sets = new Map<string, Set<string>>();

  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  get(key: string): Promise<string | null> {
    return Promise.resolve(this.live(key)?.value ?? null);
  }

  set(key: string, value: string, options: { ttlSeconds: number; onlyIfAbsent?: boolean }): Promise<boolean> {
    if (options.onlyIfAbsent && this.live(key)) {
      return Promise.resolve(false);
    }
    this.values.set(key, { value, expiresAt: this.now() + options.ttlSeconds * 1000 });
    return Promise.resolve(true);
  }

  del(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }

  increment(key: string, ttlSeconds: number): Promise<{ value: number; ttlSeconds: number }> {
    const entry = this.live(key) ?? { value: '0', expiresAt: this.now() + ttlSeconds * 1000 };
    entry.value = String(Number(entry.value) + 1);
    this.values.set(key, entry);
    return Promise.resolve({
      value: Number(entry.value),
      ttlSeconds: Math.ceil((entry.expiresAt - this.now()) / 1000),
    });
  }

  hashIncrement(key: string, field: string, by: number): Promise<void> {
    const hash = this.hash(key);
    hash.set(field, String(Number(hash.get(field) ?? 0) + by));
    return Promise.resolve();
  }

  hashSet(key: string, field: string, value: string): Promise<void> {
    this.hash(key).set(field, value);
    return Promise.resolve();
  }

  /** Both applied before it returns, like the one MULTI of the Redis store. */
  hashSetAndIncrement(
    key: string,
    set: { field: string; value: string },
    increment: { field: string; by: number },
  ): Promise<void> {
    void this.hashSet(key, set.field, set.value);
    return this.hashIncrement(key, increment.field, increment.by);
  }

  hashGetAll(key: string): Promise<Record<string, string>> {
    return Promise.resolve(Object.fromEntries(this.hashes.get(key) ?? []));
  }

  hashTake(key: string): Promise<Record<string, string>> {
    const taken = Object.fromEntries(this.hashes.get(key) ?? []);
    this.hashes.delete(key);
    return Promise.resolve(taken);
  }

  setAdd(key: string, member: string): Promise<void> {
    this.sets.set(key, (this.sets.get(key) ?? new Set()).add(member));
    return Promise.resolve();
  }

  setMembers(key: string): Promise<string[]> {
    return Promise.resolve([...(this.sets.get(key) ?? [])]);
  }

  setRemove(key: string, member: string): Promise<void> {
    this.sets.get(key)?.delete(member);
    return Promise.resolve();
  }

  ping(): Promise<boolean> {
    return Promise.resolve(true);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private live(key: string): Entry | undefined {
    const entry = this.values.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.values.delete(key);
      return undefined;
    }
    return entry;
  }

  private hash(key: string): Map<string, string> {
    const hash = this.hashes.get(key) ?? new Map<string, string>();
    this.hashes.set(key, hash);
    return hash;
  }
}
