import {
  createEnvelope,
  type Envelope,
  type EnvelopeMeta,
  type EventContract,
  type MessageContext,
  type PayloadOf,
} from '@cts/contracts';
import { type DataSource, type EntityManager } from 'typeorm';
import { PreparedStatement } from './prepared-statement';

/** A database transaction that can also record events: they are published only if it commits. */
export interface Transaction {
  readonly manager: EntityManager;
  emit<E extends EventContract>(
    event: E,
    key: string,
    payload: PayloadOf<E>,
    context: MessageContext,
  ): Promise<Envelope<PayloadOf<E>>>;
}

/**
 * State and events in one Postgres transaction (the outbox), and each handled message recorded in
 * the inbox so a redelivery has no second effect.
 */
export class UnitOfWork {
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
  ) {}

  /** Called after every commit that recorded events (the outbox relay publishes at once). */
  onEventsCommitted(listener: () => void): void {
    this.listeners.push(listener);
  }

  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    let emitted = 0;
    const result = await this.dataSource.transaction(async (manager) => {
      const tx = this.transaction(manager, () => emitted++);
      return work(tx);
    });
    if (emitted > 0) {
      this.listeners.forEach((listener) => listener());
    }
    return result;
  }

  /**
   * The reply stored for a message this consumer already handled, or undefined. For a handler that
   * calls other services before its `once`: a redelivery skips those calls when the work is done.
   */
  async recordedReply<T>(message: EnvelopeMeta, consumer: string): Promise<T | undefined> {
    const rows: { reply: T | null }[] = await this.dataSource.query(
      `SELECT reply FROM "${this.schema}"."inbox" WHERE message_id = $1 AND consumer = $2 AND reply IS NOT NULL`,
      [message.id, consumer],
    );
    return rows[0]?.reply ?? undefined;
  }

  /**
   * One INSERT and the event it records, as ONE statement (the INSERT in a WITH clause): atomic like
   * `run` with one write and one `emit`, without BEGIN and COMMIT (four round trips become one).
   * `insert` uses the placeholders $1..$n of `parameters`; its constraint errors surface unchanged.
   */
  async insertWithEvent<E extends EventContract>(
    insert: { sql: string; parameters: unknown[] },
    event: E,
    key: string,
    payload: PayloadOf<E>,
    context: MessageContext,
  ): Promise<Envelope<PayloadOf<E>>> {
    const envelope = createEnvelope(
      event.type,
      event.version,
      event.payload.parse(payload) as PayloadOf<typeof event>,
      context,
    );
    const next = insert.parameters.length;
    // Prepared: planning this statement cost PostgreSQL more than running it.
    await PreparedStatement.of(
      `WITH written AS (${insert.sql}) INSERT INTO "${this.schema}"."outbox" (id, topic, key, envelope) ` +
        `VALUES ($${next + 1}, $${next + 2}, $${next + 3}, $${next + 4})`,
    ).run(this.dataSource, [...insert.parameters, envelope.id, event.topic, key, JSON.stringify(envelope)]);
    this.listeners.forEach((listener) => listener());
    return envelope;
  }

  /**
   * A change and the event it records, as ONE statement, the event written only if the change
   * happened. `change.with` lists data-modifying CTEs (top-level `name AS (…)` clauses, placeholders
   * $1..$n of `change.parameters`); the one named `changed` must RETURN a row when the change was
   * made and none when its conditions did not hold (e.g. `… WHERE status = 'pending' RETURNING id`).
   * Returns the envelope, or null when nothing changed (then nothing was written at all, provided the
   * other CTEs also depend on `changed`'s conditions).
   */
  async changeWithEvent<E extends EventContract>(
    change: { with: string; parameters: unknown[] },
    event: E,
    key: string,
    payload: PayloadOf<E>,
    context: MessageContext,
  ): Promise<Envelope<PayloadOf<E>> | null> {
    const envelope = createEnvelope(
      event.type,
      event.version,
      event.payload.parse(payload) as PayloadOf<typeof event>,
      context,
    );
    const next = change.parameters.length;
    const rows = await PreparedStatement.of<{ recorded: number }>(
      `WITH ${change.with}, recorded AS (INSERT INTO "${this.schema}"."outbox" (id, topic, key, envelope) ` +
        `SELECT $${next + 1}::uuid, $${next + 2}::text, $${next + 3}::text, $${next + 4}::jsonb ` +
        `WHERE EXISTS (SELECT 1 FROM changed) RETURNING id) SELECT count(*)::int AS recorded FROM recorded`,
    ).run(this.dataSource, [...change.parameters, envelope.id, event.topic, key, JSON.stringify(envelope)]);
    if ((rows[0]?.recorded ?? 0) === 0) {
      return null;
    }
    this.listeners.forEach((listener) => listener());
    return envelope;
  }

  /**
   * Runs `work` once per message and consumer. A duplicate gets the first run's stored result
   * instead of a second effect; a concurrent duplicate waits on the inbox row's lock, then sees it.
   */
  async once<T>(
    message: EnvelopeMeta,
    consumer: string,
    work: (tx: Transaction) => Promise<T>,
  ): Promise<{ duplicate: boolean; value: T }> {
    return this.run(async (tx) => {
      const inserted: unknown[] = await tx.manager.query(
        `INSERT INTO "${this.schema}"."inbox" (message_id, consumer) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message_id`,
        [message.id, consumer],
      );
      if (inserted.length === 0) {
        const rows: { reply: T }[] = await tx.manager.query(
          `SELECT reply FROM "${this.schema}"."inbox" WHERE message_id = $1 AND consumer = $2`,
          [message.id, consumer],
        );
        return { duplicate: true, value: rows[0]?.reply };
      }
      const value = await work(tx);
      await tx.manager.query(
        `UPDATE "${this.schema}"."inbox" SET reply = $3 WHERE message_id = $1 AND consumer = $2`,
        [message.id, consumer, JSON.stringify(value ?? null)],
      );
      return { duplicate: false, value };
    });
  }

  private transaction(manager: EntityManager, onEmit: () => void): Transaction {
    const schema = this.schema;
    return {
      manager,
      async emit(event, key, payload, context) {
        const envelope = createEnvelope(
          event.type,
          event.version,
          event.payload.parse(payload) as PayloadOf<typeof event>,
          context,
        );
        onEmit();
        await manager.query(
          `INSERT INTO "${schema}"."outbox" (id, topic, key, envelope) VALUES ($1, $2, $3, $4)`,
          [envelope.id, event.topic, key, JSON.stringify(envelope)],
        );
        return envelope;
      },
    };
  }
}
