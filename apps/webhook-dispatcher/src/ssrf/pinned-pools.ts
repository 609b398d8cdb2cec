import { type LookupAddress } from 'node:dns';
import { type LookupFunction } from 'node:net';
import { type ConnectionOptions } from 'node:tls';
import { Pool } from 'undici';

export interface PinnedPoolOptions {
  /** Open connections per endpoint (URL origin), in flight or idle. */
  connectionsPerEndpoint: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** TLS options for every connection (a secure context with extra CAs); verification stays on. */
  tls?: Pick<ConnectionOptions, 'secureContext'>;
}

interface PinnedPool {
  address: string;
  pool: Pool;
  lastUsed: number;
}

/** An endpoint's pool is dropped (its idle connections closed) after this long unused. */
const IDLE_POOL_MS = 60_000;

/** A `lookup` that answers with the one address given: the connection can reach nothing else. */
function pinnedLookup(pinned: LookupAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      callback(null, [pinned]);
    } else {
      callback(null, pinned.address, pinned.family);
    }
  };
}

/** Closing waits for the requests in flight; whatever they hit is reported to their own callers. */
function closeQuietly(pool: Pool): void {
  pool.close().catch(() => undefined);
}

/**
 * Keep-alive connections per endpoint, each endpoint's pool pinned to one address the destination
 * guard checked. WARNING: the SSRF guarantee lives here. A delivery asks for a pool with the
 * addresses it has just resolved and checked; the endpoint's pool is reused only if its address is
 * among them. Otherwise (DNS moved) the old pool is closed — it takes no new request, its requests
 * in flight finish — and a new one is pinned to a checked address. A pool's connections only ever
 * go to its pinned address, so no connection reaches an address that was not checked for the
 * delivery using it. At most `connectionsPerEndpoint` connections per pool.
 */
export class PinnedPools {
  private readonly pools = new Map<string, PinnedPool>();
  private lastSweep = 0;

  constructor(private readonly options: PinnedPoolOptions) {}

  /**
   * The pool for `origin` whose connections go to one of `checked` (non-empty, every one allowed).
   * Dispatch on it in the same tick: a later call for the same origin may close it.
   */
  poolFor(origin: string, checked: readonly LookupAddress[], now = Date.now()): Pool {
    this.sweep(now);
    const current = this.pools.get(origin);
    if (current && checked.some((a) => a.address === current.address)) {
      current.lastUsed = now;
      return current.pool;
    }
    if (current) {
      closeQuietly(current.pool);
    }
    const [address] = checked;
    if (!address) {
      throw new Error(`no checked address for ${origin}`);
    }
    const pool = new Pool(origin, {
      connections: this.options.connectionsPerEndpoint,
      pipelining: 1,
      headersTimeout: this.options.headersTimeoutMs,
      bodyTimeout: this.options.bodyTimeoutMs,
      connect: {
        ...this.options.tls,
        timeout: this.options.connectTimeoutMs,
        lookup: pinnedLookup(address),
      },
    });
    this.pools.set(origin, { address: address.address, pool, lastUsed: now });
    return pool;
  }

  /** How many endpoints have a pool (for tests and metrics). */
  get size(): number {
    return this.pools.size;
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map(({ pool }) => pool.close()));
  }

  /** Drops pools unused for a while, so endpoints seen once do not keep a pool (and sockets) forever. */
  private sweep(now: number): void {
    if (now - this.lastSweep < IDLE_POOL_MS / 4) {
      return;
    }
    this.lastSweep = now;
    for (const [origin, entry] of this.pools) {
      if (now - entry.lastUsed > IDLE_POOL_MS) {
        this.pools.delete(origin);
        closeQuietly(entry.pool);
      }
    }
  }
}
