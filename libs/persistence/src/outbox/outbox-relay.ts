import { Logger } from '@nestjs/common';
import { type DataSource } from 'typeorm';
import { type MessagePublisher } from '@cts/messaging';
import { outboxBacklog } from '@cts/platform';
import { PreparedStatement } from '../prepared-statement';

export interface OutboxRelayOptions {
  schema: string;
  /**
   * How often to look for unsent events when nothing kicked the relay (default 10 s): only rows
   * whose writer died between its commit and its kick wait for this (the writer kicks its own).
   */
  pollIntervalMs?: number;
  /** How soon to look again after a failed publish or with rows left unsent (default 1 s). */
  retryIntervalMs?: number;
  batchSize?: number;
}

interface UnsentRow {
  id: string;
  topic: string;
  key: string;
  envelope: unknown;
  created_at: Date;
}

/** How often at most the backlog metric is counted (a count is a query of its own). */
const BACKLOG_SAMPLE_MS = 1000;
const POLL_INTERVAL_MS = 10_000;
const RETRY_INTERVAL_MS = 1_000;

/**
 * Publishes what services wrote to `<schema>.outbox`, then marks it sent. Rows are claimed with
 * `FOR UPDATE SKIP LOCKED`, so replicas share the work; a crash after publishing and before marking
 * republishes on restart (at least once; consumers' inboxes absorb the duplicate).
 *
 * Every commit that wrote events kicks the relay of its own process, so the poll is only a backstop
 * (a replica that died after its commit): slow at rest, 1 s while publishing fails or rows remain.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private kicked = false;
  private stopped = true;
  private backlog = 0;
  private backlogSampledAt = 0;

  private readonly markUnsent: PreparedStatement<UnsentRow>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: MessagePublisher,
    private readonly options: OutboxRelayOptions,
  ) {
    const schema = options.schema;
    this.markUnsent = new PreparedStatement<UnsentRow>(
      `outbox.mark_unsent:${schema}`,
      `UPDATE "${schema}"."outbox" SET sent_at = now() WHERE id IN (
         SELECT id FROM "${schema}"."outbox" WHERE sent_at IS NULL
         ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, topic, key, envelope, created_at`,
    );
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Publish soon: a transaction just committed events. */
  kick(): void {
    this.kicked = true;
    if (!this.stopped && !this.running) {
      this.schedule(0);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Unsent events at the last look: the outbox backlog metric. */
  get unsent(): number {
    return this.backlog;
  }

  /**
   * Publishes one batch; returns how many rows it sent. The rows are marked sent and locked in one
   * statement, and the mark commits only after the publish succeeded: a failure or a crash in
   * between rolls it back, and they go again.
   */
  async relayOnce(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const marked = await this.markUnsent.run(manager, [this.batchSize]);
      if (marked.length === 0) {
        return 0;
      }
      // RETURNING has no order: publish in the order the events were written.
      const rows = marked.sort(
        (a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id),
      );
      await this.publisher.publish(
        rows.map((row) => ({ topic: row.topic, key: row.key, value: JSON.stringify(row.envelope) })),
      );
      return rows.length;
    });
  }

  private get batchSize(): number {
    return this.options.batchSize ?? 100;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.drain().then((retrySoon) => {
        this.running = undefined;
        if (!this.stopped) {
          this.schedule(this.kicked ? 0 : this.nextLookMs(retrySoon));
        }
      });
    }, delayMs);
    this.timer.unref();
  }

  private nextLookMs(retrySoon: boolean): number {
    return retrySoon
      ? (this.options.retryIntervalMs ?? RETRY_INTERVAL_MS)
      : (this.options.pollIntervalMs ?? POLL_INTERVAL_MS);
  }

  /** Publishes until nothing is left; true when it should look again soon (it failed, or rows remain). */
  private async drain(): Promise<boolean> {
    this.kicked = false;
    try {
      await this.publishAll();
      if (Date.now() - this.backlogSampledAt >= BACKLOG_SAMPLE_MS) {
        this.backlogSampledAt = Date.now();
        const rows = await this.dataSource.query<{ count: number }[]>(
          `SELECT count(*)::int AS count FROM "${this.options.schema}"."outbox" WHERE sent_at IS NULL`,
        );
        this.backlog = rows[0]?.count ?? 0;
        outboxBacklog.set({ service: this.options.schema }, this.backlog);
      }
      // Rows another replica holds (SKIP LOCKED) or committed since: soon, not at the slow poll.
      return this.backlog > 0;
    } catch (error) {
      this.logger.error(`outbox relay for ${this.options.schema} failed, retrying: ${String(error)}`);
      return true;
    }
  }

  private async publishAll(): Promise<void> {
    // A partial batch took everything committed before it; a commit after it kicks again.
    while ((await this.relayOnce()) >= this.batchSize) {
      // keep going while full batches come back
    }
  }
}
