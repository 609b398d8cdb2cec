/** The cache could not be reached: a dependency outage (`503`), not a fault of the request. */
export class CacheUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The cache is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'CacheUnavailableError';
  }
}

/**
 * The gateway's shared fast state: key cache, rate limits, idempotency records, usage counters.
 * Redis in the distributed mode (shared by every replica), memory in the one-process mode.
 */
export abstract class CacheStore {
  abstract get(key: string): Promise<string | null>;
  /** Returns false when `onlyIfAbsent` is set and the key exists. */
  abstract set(
    key: string,
    value: string,
    options: { ttlSeconds: number; onlyIfAbsent?: boolean },
  ): Promise<boolean>;
  abstract del(key: string): Promise<void>;
  /** Increments a counter, setting its expiry when it is created; returns the new value and its remaining ttl. */
  abstract increment(key: string, ttlSeconds: number): Promise<{ value: number; ttlSeconds: number }>;
  abstract hashIncrement(key: string, field: string, by: number): Promise<void>;
  abstract hashSet(key: string, field: string, value: string): Promise<void>;
  /** Sets one field and increments another in one atomic step (one round trip to Redis). */
  abstract hashSetAndIncrement(
    key: string,
    set: { field: string; value: string },
    increment: { field: string; by: number },
  ): Promise<void>;
  abstract hashGetAll(key: string): Promise<Record<string, string>>;
  /** Reads and deletes a hash in one atomic step (so two flushers never both take it). */
  abstract hashTake(key: string): Promise<Record<string, string>>;
  abstract setAdd(key: string, member: string): Promise<void>;
  abstract setMembers(key: string): Promise<string[]>;
  abstract setRemove(key: string, member: string): Promise<void>;
  abstract ping(): Promise<boolean>;
  abstract close(): Promise<void>;
}
