import { Injectable } from '@nestjs/common';
import { type Environment } from '@cts/contracts';
import { PreparedStatement } from '@cts/persistence';
import { DataSource, type EntityManager, MoreThanOrEqual } from 'typeorm';
import { EventEntity } from './event.entity';

export interface StoredEvent {
  id: string;
  messageId: string;
  type: string;
  environment: Environment;
  accountIds: string[];
  data: unknown;
  occurredAt: Date;
  createdAt: Date;
}

const toStored = (row: EventEntity): StoredEvent => ({ ...row, environment: row.environment as Environment });

interface EventRow {
  id: string;
  message_id: string;
  type: string;
  environment: string;
  account_ids: string[];
  data: unknown;
  occurred_at: Date;
  created_at: Date;
}

const fromRow = (row: EventRow): StoredEvent => ({
  id: row.id,
  messageId: row.message_id,
  type: row.type,
  environment: row.environment as Environment,
  accountIds: row.account_ids,
  data: row.data,
  occurredAt: row.occurred_at,
  createdAt: row.created_at,
});

/** What one account of an event's audience is sent, as JSON. */
export interface AddressedBody {
  accountId: string;
  body: string;
}

/** An event to ingest with what each account of its audience is sent. */
export interface IngestedEvent {
  event: StoredEvent;
  bodies: AddressedBody[];
}

/**
 * For a batch of events: each message's inbox row and, only for those not there yet, the event and
 * one delivery (due at once) per live subscription of its audience that takes its type, the
 * subscriptions read by the same statement (a disabled one's delivery waits, not due, until it is
 * enabled). One statement, so atomic: all of the batch or none. Inbox rows are taken in message-id
 * order, so two batches sharing messages (a redelivery during a rebalance) wait for each other and
 * never deadlock. A delivery's id is derived from its event and subscription: the event id's time
 * part, then 16 hex digits of sha256(subscription id, event id), all in the id alphabet.
 */
const INGEST_EVENTS = new PreparedStatement<{ endpoints: string[] }>(
  'webhooks.ingest_events',
  `WITH input AS (
     SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[], $8::timestamptz[],
         $13::timestamptz[])
       AS e(message_id, id, type, environment, account_ids, data, occurred_at, created_at)),
   handled AS (
     INSERT INTO "webhooks"."inbox" (message_id, consumer)
     SELECT message_id, $1 FROM input ORDER BY message_id
     ON CONFLICT DO NOTHING RETURNING message_id),
   new_event AS (
     SELECT i.* FROM input i JOIN handled h ON h.message_id = i.message_id),
   stored AS (
     INSERT INTO "webhooks"."events" (id, message_id, type, environment, account_ids, data, occurred_at, created_at)
     SELECT id, message_id, type, environment, ARRAY(SELECT jsonb_array_elements_text(account_ids)), data,
       occurred_at, created_at
     FROM new_event),
   addressed AS (
     SELECT e.id AS event_id, e.type, e.environment, s.id AS subscription_id, s.endpoint, a.account_id, a.body,
       s.disabled_at IS NULL AS enabled
     FROM unnest($10::uuid[], $11::text[], $12::text[]) AS a(message_id, account_id, body)
     JOIN new_event e ON e.message_id = a.message_id
     JOIN "webhooks"."subscriptions" s ON s.account_id = a.account_id AND s.environment = e.environment
       AND s.deleted_at IS NULL AND s.events @> ARRAY[e.type]),
   deliveries AS (
     INSERT INTO "webhooks"."deliveries"
       (id, subscription_id, event_id, account_id, environment, event_type, body, created_at, next_attempt_at, status)
     SELECT 'dlv_' || substr(event_id, 5, 10)
         || left(encode(sha256(convert_to(subscription_id || event_id, 'UTF8')), 'hex'), 16),
       subscription_id, event_id, account_id, environment, type, body, $9::timestamptz,
       CASE WHEN enabled THEN $9::timestamptz END, CASE WHEN enabled THEN 'pending' ELSE 'waiting' END
     FROM addressed)
   SELECT ARRAY(SELECT DISTINCT endpoint FROM addressed WHERE enabled) AS endpoints`,
);

@Injectable()
export class EventRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records each message in the inbox and, for those not there yet, stores the event with its
   * deliveries: one statement for the whole batch, so one round trip and atomic without a
   * transaction (a failure stores none of the batch; the transport hands it over again). Each event
   * keeps its own `createdAt`; deliveries are created at `createdAt` (when the batch was taken in).
   * A message twice in the batch counts once; a concurrent duplicate waits on its inbox row, then
   * does nothing. Returns each endpoint that got a
   * due delivery, once (a burst to one endpoint used to return its endpoint once per delivery).
   */
  async ingestBatch(
    consumer: string,
    events: IngestedEvent[],
    createdAt: Date,
  ): Promise<{ endpoints: string[] }> {
    const unique = [...new Map(events.map((e) => [e.event.messageId, e])).values()];
    if (unique.length === 0) {
      return { endpoints: [] };
    }
    const column = <T>(pick: (e: IngestedEvent) => T): T[] => unique.map(pick);
    const bodies = unique.flatMap(({ event, bodies }) =>
      bodies.map((b) => ({ messageId: event.messageId, ...b })),
    );
    const [{ endpoints }] = await INGEST_EVENTS.run(this.dataSource, [
      consumer,
      column((e) => e.event.messageId),
      column((e) => e.event.id),
      column((e) => e.event.type),
      column((e) => e.event.environment),
      column((e) => JSON.stringify(e.event.accountIds)),
      column((e) => JSON.stringify(e.event.data)),
      column((e) => e.event.occurredAt),
      createdAt,
      bodies.map((b) => b.messageId),
      bodies.map((b) => b.accountId),
      bodies.map((b) => b.body),
      column((e) => e.event.createdAt),
    ]);
    return { endpoints };
  }

  /** A stored event of this environment received since `notBefore` (the retention window). */
  async findRecent(id: string, environment: Environment, notBefore: Date): Promise<StoredEvent | null> {
    const row = await this.dataSource.manager.findOneBy(EventEntity, {
      id,
      environment,
      createdAt: MoreThanOrEqual(notBefore),
    });
    return row ? toStored(row) : null;
  }

  /**
   * Stores an event the dispatcher raised itself (one account's) with its deliveries, in the
   * caller's transaction: to `only` that subscription whatever its event types (a test), or to every
   * live subscription of the account taking this type except `except`. Returns the endpoints served.
   */
  async recordInternal(
    event: StoredEvent,
    body: string,
    target: { only: string } | { except: string },
    manager: EntityManager,
  ): Promise<string[]> {
    await manager.query(
      `INSERT INTO "webhooks"."events" (id, message_id, type, environment, account_ids, data, occurred_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        event.id,
        event.messageId,
        event.type,
        event.environment,
        event.accountIds,
        JSON.stringify(event.data),
        event.occurredAt,
        event.createdAt,
      ],
    );
    const [accountId] = event.accountIds;
    const rows = await manager.query<{ endpoint: string; status: string }[]>(
      `INSERT INTO "webhooks"."deliveries"
         (id, subscription_id, event_id, account_id, environment, event_type, body, created_at, next_attempt_at, status)
       SELECT 'dlv_' || substr($1::text, 5, 10) || left(encode(sha256(convert_to(s.id || $1::text, 'UTF8')), 'hex'), 16),
         s.id, $1, s.account_id, s.environment, $2, $3, $4,
         CASE WHEN s.disabled_at IS NULL OR $7::text IS NOT NULL THEN $4::timestamptz END,
         CASE WHEN s.disabled_at IS NULL OR $7::text IS NOT NULL THEN 'pending' ELSE 'waiting' END
       FROM "webhooks"."subscriptions" s
       WHERE s.account_id = $5 AND s.environment = $6 AND s.deleted_at IS NULL
         AND (CASE WHEN $7::text IS NOT NULL THEN s.id = $7 ELSE s.id <> $8 AND s.events @> ARRAY[$2::text] END)
       RETURNING (SELECT endpoint FROM "webhooks"."subscriptions" WHERE id = subscription_id) AS endpoint, status`,
      [
        event.id,
        event.type,
        body,
        event.createdAt,
        accountId,
        event.environment,
        'only' in target ? target.only : null,
        'except' in target ? target.except : null,
      ],
    );
    return rows.filter((row) => row.status === 'pending').map((row) => row.endpoint);
  }

  /**
   * One page of the account's events in an environment, newest first (`created_at`, then id), from
   * `notBefore` (the retention window) on. `after`: the last event of the previous page.
   */
  async pageForAccount(query: {
    accountId: string;
    environment: Environment;
    notBefore: Date;
    types: string[];
    createdAfter: Date | null;
    createdBefore: Date | null;
    after: { createdAt: Date; id: string } | null;
    limit: number;
  }): Promise<StoredEvent[]> {
    const rows = await this.dataSource.query<EventRow[]>(
      `SELECT id, message_id, type, environment, account_ids, data, occurred_at, created_at
       FROM "webhooks"."events"
       WHERE account_ids @> ARRAY[$1::text] AND environment = $2 AND created_at >= $3
         AND (cardinality($4::text[]) = 0 OR type = ANY($4::text[]))
         AND ($5::timestamptz IS NULL OR created_at > $5)
         AND ($6::timestamptz IS NULL OR created_at < $6)
         AND ($7::timestamptz IS NULL OR (created_at, id) < ($7, $8::text))
       ORDER BY created_at DESC, id DESC
       LIMIT $9`,
      [
        query.accountId,
        query.environment,
        query.notBefore,
        query.types,
        query.createdAfter,
        query.createdBefore,
        query.after?.createdAt ?? null,
        query.after?.id ?? null,
        query.limit,
      ],
    );
    return rows.map(fromRow);
  }

  /** An event of the account in this environment, received since `notBefore`. */
  async findForAccount(
    id: string,
    accountId: string,
    environment: Environment,
    notBefore: Date,
  ): Promise<StoredEvent | null> {
    const event = await this.findRecent(id, environment, notBefore);
    return event && event.accountIds.includes(accountId) ? event : null;
  }

  /**
   * Drops what is past retention: events with their deliveries and attempts, handled-message
   * records, and deleted subscriptions left without deliveries. Safe on several replicas at once.
   */
  async purgeBefore(cutoff: Date): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `DELETE FROM "webhooks"."delivery_attempts" a USING "webhooks"."deliveries" d, "webhooks"."events" e
         WHERE a.delivery_id = d.id AND d.event_id = e.id AND e.created_at < $1`,
        [cutoff],
      );
      await manager.query(
        `DELETE FROM "webhooks"."deliveries" d USING "webhooks"."events" e WHERE d.event_id = e.id AND e.created_at < $1`,
        [cutoff],
      );
      const [, events] = await manager.query<[unknown, number]>(
        `DELETE FROM "webhooks"."events" WHERE created_at < $1`,
        [cutoff],
      );
      await manager.query(`DELETE FROM "webhooks"."inbox" WHERE handled_at < $1`, [cutoff]);
      await manager.query(
        `DELETE FROM "webhooks"."subscriptions" s WHERE s.deleted_at < $1
         AND NOT EXISTS (SELECT 1 FROM "webhooks"."deliveries" d WHERE d.subscription_id = s.id)`,
        [cutoff],
      );
      return events;
    });
  }
}
