import { Injectable } from '@nestjs/common';
import { type Environment } from '@cts/contracts';
import { PreparedStatement } from '@cts/persistence';
import { DataSource, MoreThanOrEqual } from 'typeorm';
import { type NewDelivery } from '../deliveries/delivery.repository';
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

/** The inbox row, and only if it is new, the event and its deliveries (due at once). */
const INSERT_ONCE = new PreparedStatement<{ handled: number }>(
  'webhooks.insert_event_once',
  `WITH handled AS (
     INSERT INTO "webhooks"."inbox" (message_id, consumer) VALUES ($1, $2)
     ON CONFLICT DO NOTHING RETURNING message_id),
   event AS (
     INSERT INTO "webhooks"."events" (id, message_id, type, environment, account_ids, data, occurred_at, created_at)
     SELECT $3, $1, $4, $5, $6, $7, $8, $9 FROM handled),
   deliveries AS (
     INSERT INTO "webhooks"."deliveries"
       (id, subscription_id, event_id, account_id, environment, event_type, body, created_at, next_attempt_at, status)
     SELECT d.id, d.subscription_id, d.event_id, d.account_id, d.environment, d.event_type, d.body, d.created_at,
       d.created_at, 'pending'
     FROM unnest($10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[],
       $17::timestamptz[]) AS d(id, subscription_id, event_id, account_id, environment, event_type, body, created_at)
     WHERE EXISTS (SELECT 1 FROM handled))
   SELECT count(*)::int AS handled FROM handled`,
);

@Injectable()
export class EventRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records the message in the inbox and, only if it was not there yet, stores the event with its
   * deliveries (due at once): one statement, so one round trip and atomic without a transaction.
   * Ingestion is one sequential consumer per topic partition, so every round trip here bounds how
   * many events a second it takes in. A concurrent duplicate waits on the inbox row, then does nothing.
   */
  async insertOnce(
    inbox: { messageId: string; consumer: string },
    event: StoredEvent,
    deliveries: NewDelivery[],
  ): Promise<{ duplicate: boolean }> {
    const column = <K extends keyof NewDelivery>(key: K) => deliveries.map((delivery) => delivery[key]);
    const [{ handled }] = await INSERT_ONCE.run(this.dataSource, [
      inbox.messageId,
      inbox.consumer,
      event.id,
      event.type,
      event.environment,
      event.accountIds,
      JSON.stringify(event.data),
      event.occurredAt,
      event.createdAt,
      column('id'),
      column('subscriptionId'),
      column('eventId'),
      column('accountId'),
      column('environment'),
      column('eventType'),
      column('body'),
      column('createdAt'),
    ]);
    return { duplicate: handled === 0 };
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
