import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@cts/contracts';
import { CacheStore } from '@cts/platform';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings';
import { IdempotencyRecordSealing } from './idempotency-record.sealing';
import { type IdempotencyRecord, RECORD_TTL_SECONDS } from './idempotency.domain';

const POLL_MS = 25;

const StoredRecord = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('in_progress'),
    fingerprint: z.string(),
    owner: z.string(),
    late: z.boolean().optional(),
  }),
  z.object({
    state: z.literal('completed'),
    fingerprint: z.string(),
    status: z.number().int(),
    body: z.unknown(),
  }),
]);

export interface IdempotencyLock {
  scope: string;
  key: string;
  fingerprint: string;
  owner: string;
}

export type Claim =
  { kind: 'execute'; lock: IdempotencyLock } | { kind: 'replay'; status: number; body: unknown };

/**
 * Idempotency records in the shared cache. The first request with a key takes a short lock (it
 * expires if the replica dies mid-request, so a retry can run); later ones with the same key wait
 * for it and replay its stored response.
 */
@Injectable()
export class IdempotencyStore {
  private readonly sealing: IdempotencyRecordSealing;
  private readonly lockTtlSeconds: number;

  constructor(
    private readonly cache: CacheStore,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {
    this.sealing = new IdempotencyRecordSealing(Buffer.from(settings.apiKeyHashKey, 'utf8'));
    this.lockTtlSeconds = Math.ceil((2 * settings.commandTimeoutMs) / 1000) + 5;
  }

  async claim(scope: string, key: string, fingerprint: string): Promise<Claim> {
    const id = this.sealing.storageKey(scope, key);
    const lock: IdempotencyLock = { scope, key, fingerprint, owner: randomUUID() };
    const inProgress: IdempotencyRecord = { state: 'in_progress', fingerprint, owner: lock.owner };
    const deadline = performance.now() + this.settings.idempotencyWaitMs;
    for (;;) {
      const sealed = this.sealing.seal(scope, key, inProgress);
      if (await this.cache.set(id, sealed, { ttlSeconds: this.lockTtlSeconds, onlyIfAbsent: true })) {
        return { kind: 'execute', lock };
      }
      const record = await this.read(scope, key);
      if (record && record.fingerprint !== fingerprint) {
        throw new DomainError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with a different request',
          {
            param: 'Idempotency-Key',
          },
        );
      }
      if (record?.state === 'completed') {
        return { kind: 'replay', status: record.status, body: record.body };
      }
      if (performance.now() >= deadline && record?.late) {
        // Its first request already answered 503 and still waits for a late answer: as retryable.
        throw new DomainError(
          'service_unavailable',
          'The first request with this Idempotency-Key is still waiting for its answer; retry with the same key',
          { reason: 'deadline_exceeded' },
        );
      }
      if (performance.now() >= deadline) {
        throw new DomainError(
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still in progress; retry later',
          {
            param: 'Idempotency-Key',
          },
        );
      }
      await sleep(POLL_MS);
    }
  }

  async complete(lock: IdempotencyLock, status: number, body: unknown): Promise<void> {
    const record: IdempotencyRecord = {
      state: 'completed',
      fingerprint: lock.fingerprint,
      status,
      body: body ?? null,
    };
    const id = this.sealing.storageKey(lock.scope, lock.key);
    await this.cache.set(id, this.sealing.seal(lock.scope, lock.key, record), {
      ttlSeconds: RECORD_TTL_SECONDS,
    });
  }

  /**
   * The request answered 503 and waits on for its commands' late answer: a retry that outwaits it is
   * told to retry again (503), not that the key is in use by another request (409).
   */
  async markLate(lock: IdempotencyLock): Promise<void> {
    const record = await this.heldBy(lock);
    if (record) {
      const late: IdempotencyRecord = { ...record, late: true };
      await this.cache.set(
        this.sealing.storageKey(lock.scope, lock.key),
        this.sealing.seal(lock.scope, lock.key, late),
        { ttlSeconds: this.lockTtlSeconds },
      );
    }
  }

  /** Frees the key after a failure worth retrying (5xx), unless another request holds it by now. */
  async release(lock: IdempotencyLock): Promise<void> {
    if (await this.heldBy(lock)) {
      await this.cache.del(this.sealing.storageKey(lock.scope, lock.key));
    }
  }

  /** The key's in-progress record while `lock` still holds it (no other request took it since). */
  private async heldBy(
    lock: IdempotencyLock,
  ): Promise<Extract<IdempotencyRecord, { state: 'in_progress' }> | undefined> {
    const record = await this.read(lock.scope, lock.key);
    return record?.state === 'in_progress' && record.owner === lock.owner ? record : undefined;
  }

  private async read(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const id = this.sealing.storageKey(scope, key);
    const stored = await this.cache.get(id);
    if (stored === null) {
      return undefined;
    }
    const parsed = StoredRecord.safeParse(this.sealing.open(scope, key, stored));
    if (!parsed.success) {
      // Unreadable (e.g. sealed under a rotated key): worthless, so it must not block the key.
      await this.cache.del(id);
      return undefined;
    }
    return parsed.data;
  }
}
