import { Inject, Injectable } from '@nestjs/common';
import { type MessageContext, RecordApiKeyUsage } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { CacheStore } from '@cts/platform';
import { randomUUID } from 'node:crypto';
import { type Logger } from 'pino';
import { GATEWAY_LOGGER, GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings';
import { countField, type KeyUsage, lastUsedField, mergeUsage, parseUsage } from './api-key-usage.domain';

const USAGE_HASH = 'apikey-usage';
const BATCH_SIZE = 1000;

/**
 * Per-key request counts and last use: counted in the shared cache on every request, flushed to
 * account-service every few seconds. `hashTake` moves the counts out atomically, so two replicas
 * flushing at once never both send the same requests.
 */
@Injectable()
export class ApiKeyUsage {
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private inFlight = new Map<string, KeyUsage>();

  constructor(
    private readonly cache: CacheStore,
    private readonly commands: CommandBus,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Counts one request. The request does not wait for it (in the distributed mode that was a cache
   * round trip of its own before the rate limit's); the cache applies its commands in the order
   * sent, so a later read or flush still sees this count. A count the cache refused is logged, not
   * the request's failure.
   */
  record(keyId: string): void {
    // Together: a flush never takes a count without its time, or a time without its count.
    this.cache
      .hashSetAndIncrement(
        USAGE_HASH,
        { field: lastUsedField(keyId), value: this.nowIso() },
        { field: countField(keyId), by: 1 },
      )
      .catch((error: unknown) =>
        this.logger.warn({ key_id: keyId, error: String(error) }, 'api key usage not counted'),
      );
  }

  /** Counted but not yet recorded by account-service: in the cache, or in this replica's flush. */
  async pending(): Promise<Map<string, KeyUsage>> {
    return mergeUsage(parseUsage(await this.cache.hashGetAll(USAGE_HASH), this.nowIso()), this.inFlight);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.settings.usageFlushIntervalMs);
    this.timer.unref();
  }

  /** Stops the timer and flushes what is left (on shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Flushes are serialized within a replica; the atomic take serializes them across replicas. */
  flush(): Promise<void> {
    const run = this.queue.then(() => this.flushOnce());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(): Promise<void> {
    const taken = parseUsage(await this.cache.hashTake(USAGE_HASH), this.nowIso());
    if (taken.size === 0) {
      return;
    }
    this.inFlight = taken;
    const batches = chunk([...taken], BATCH_SIZE);
    try {
      for (const [index, batch] of batches.entries()) {
        const usages = batch.map(([key_id, u]) => ({
          key_id,
          requests: u.requests,
          last_used_at: u.lastUsedAt,
        }));
        const result = await this.commands.send(RecordApiKeyUsage, { usages }, this.context());
        if (!result.ok) {
          this.logger.warn(
            { code: result.error.code },
            'api key usage not recorded; kept for the next flush',
          );
          await this.restore(batches.slice(index).flat());
          return;
        }
      }
    } finally {
      this.inFlight = new Map();
    }
  }

  private async restore(entries: [string, KeyUsage][]): Promise<void> {
    const current = parseUsage(await this.cache.hashGetAll(USAGE_HASH), '');
    for (const [keyId, usage] of entries) {
      const newer = current.get(keyId)?.lastUsedAt;
      if (!newer || newer < usage.lastUsedAt) {
        await this.cache.hashSet(USAGE_HASH, lastUsedField(keyId), usage.lastUsedAt);
      }
      await this.cache.hashIncrement(USAGE_HASH, countField(keyId), usage.requests);
    }
  }

  private context(): MessageContext {
    return {
      correlationId: `usage-flush-${randomUUID()}`,
      causationId: null,
      environment: null,
      accountId: null,
    };
  }

  private nowIso(): string {
    return new Date(this.settings.now()).toISOString();
  }
}

function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    chunks.push(items.slice(i, i + size));
  }
  return chunks;
}
