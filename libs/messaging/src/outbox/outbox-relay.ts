import { Logger } from '@nestjs/common';
import { type DataSource } from 'typeorm';
import { type MessagePublisher } from '../publisher';
import { outboxBacklog } from '../metrics/metrics';

export interface OutboxRelayOptions {
  schema: string;
  /** How often to look for unsent events when nothing kicked the relay. */
  pollIntervalMs?: number;
  batchSize?: number;
}

interface UnsentRow {
  id: string;
  topic: string;
  key: string;
  envelope: unknown;
}

/**
 * Publishes what services wrote to `<schema>.outbox`, then marks it sent. Rows are claimed with
 * `FOR UPDATE SKIP LOCKED`, so replicas share the work; a crash after publishing and before marking
 * republishes on restart (at least once; consumers' inboxes absorb the duplicate).
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private kicked = false;
  private stopped = true;
  private backlog = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: MessagePublisher,
    private readonly options: OutboxRelayOptions,
  ) {}

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

  /** Publishes one batch; returns how many rows it sent. */
  async relayOnce(): Promise<number> {
    const schema = this.options.schema;
    return this.dataSource.transaction(async (manager) => {
      const rows: UnsentRow[] = await manager.query(
        `SELECT id, topic, key, envelope FROM "${schema}"."outbox" WHERE sent_at IS NULL
         ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.options.batchSize ?? 100],
      );
      if (rows.length === 0) {
        return 0;
      }
      await this.publisher.publish(
        rows.map((row) => ({ topic: row.topic, key: row.key, value: JSON.stringify(row.envelope) })),
      );
      await manager.query(`UPDATE "${schema}"."outbox" SET sent_at = now() WHERE id = ANY($1::uuid[])`, [rows.map((r) => r.id)]);
      return rows.length;
    });
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.drain().finally(() => {
        this.running = undefined;
        if (!this.stopped) {
          this.schedule(this.kicked ? 0 : (this.options.pollIntervalMs ?? 1000));
        }
      });
    }, delayMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    this.kicked = false;
    try {
      while (!this.stopped && (await this.relayOnce()) > 0) {
        // keep going while full batches come back
      }
      const rows = await this.dataSource.query<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM "${this.options.schema}"."outbox" WHERE sent_at IS NULL`,
      );
      this.backlog = rows[0]?.count ?? 0;
      outboxBacklog.set({ service: this.options.schema }, this.backlog);
    } catch (error) {
      this.logger.error(`outbox relay for ${this.options.schema} failed, retrying: ${String(error)}`);
    }
  }
}
