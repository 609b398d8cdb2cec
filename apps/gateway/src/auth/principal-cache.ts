import { Injectable } from '@nestjs/common';
import { Principal } from '@cts/contracts';
import { CacheStore } from '@cts/platform';
import { z } from 'zod';
import { ApiKeyHasher } from './api-key-hasher';

export const PRINCIPAL_TTL_SECONDS = 60;
/**
 * WARNING: a revoked key's tombstone must outlive any principal cached from an authentication that
 * raced the revocation (filled up to a command timeout later, then kept PRINCIPAL_TTL_SECONDS).
 * An hour is far beyond both; the database answers for the key after that.
 */
export const TOMBSTONE_TTL_SECONDS = 60 * 60;

const CachedPrincipal = z.object({ key_hash: z.string(), principal: Principal });

const principalKey = (hash: string) => `apikey:${hash}`;
const tombstoneKey = (hash: string) => `apikey-revoked:${hash}`;

/** Principals by key hash in the shared cache, and the tombstones that make revocation immediate. */
@Injectable()
export class PrincipalCache {
  constructor(
    private readonly cache: CacheStore,
    private readonly hasher: ApiKeyHasher,
  ) {}

  /** An unreadable entry counts as a miss: account-service answers instead. */
  async get(hash: string): Promise<Principal | undefined> {
    const raw = await this.cache.get(principalKey(hash));
    const cached = raw === null ? undefined : CachedPrincipal.safeParse(parseJson(raw));
    return cached?.success && this.hasher.same(cached.data.key_hash, hash)
      ? cached.data.principal
      : undefined;
  }

  /** Only fills an empty slot: a slower authentication never overwrites a fresher entry. */
  async fill(hash: string, principal: Principal): Promise<void> {
    const value = JSON.stringify({ key_hash: hash, principal });
    await this.cache.set(principalKey(hash), value, {
      ttlSeconds: PRINCIPAL_TTL_SECONDS,
      onlyIfAbsent: true,
    });
  }

  isRevoked(hash: string): Promise<boolean> {
    return this.cache.get(tombstoneKey(hash)).then((value) => value !== null);
  }

  /** Tombstone first, then drop the entry: a fill racing this cannot make the key usable again. */
  async revoke(hash: string): Promise<void> {
    await this.cache.set(tombstoneKey(hash), '1', { ttlSeconds: TOMBSTONE_TTL_SECONDS });
    await this.cache.del(principalKey(hash));
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
