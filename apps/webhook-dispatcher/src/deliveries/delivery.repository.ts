import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { type AttemptOutcome, type AttemptResult, type FailureReason } from '../attempts/attempt.domain';
import { type EndpointRoom } from '../attempts/endpoint-slots';
import { type DeliveryState, type DeliveryStatus } from './delivery.domain';
import { DeliveryEntity } from './delivery.entity';

export interface NewDelivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  accountId: string;
  environment: string;
  eventType: string;
  body: string;
  createdAt: Date;
}

export interface ClaimedDelivery {
  id: string;
  endpoint: string;
}

/** Rows looked at per free slot: enough that a few busy endpoints among them leave room for others. */
const CANDIDATES_PER_SLOT = 4;

/** A `deliveries` row as the attempt reads it, with its subscription's URL and sealed secret. */
interface LockedRow {
  id: string;
  subscription_id: string;
  event_id: string;
  account_id: string;
  environment: string;
  event_type: string;
  body: string;
  status: string;
  attempt_count: number;
  first_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  next_attempt_at: Date | null;
  failure_reason: string | null;
  created_at: Date;
  url: string;
  secret_sealed: string;
}

/** A delivery locked for one attempt, with what sending needs. */
export interface LockedDelivery extends DeliveryState {
  accountId: string;
  environment: string;
  body: string;
  url: string;
  secretSealed: string;
}

export const toDeliveryState = (row: DeliveryEntity): DeliveryState => ({
  id: row.id,
  subscriptionId: row.subscriptionId,
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status as DeliveryStatus,
  attemptCount: row.attemptCount,
  firstAttemptAt: row.firstAttemptAt,
  lastAttemptAt: row.lastAttemptAt,
  lastStatusCode: row.lastStatusCode,
  nextAttemptAt: row.nextAttemptAt,
  failureReason: row.failureReason as FailureReason | null,
  createdAt: row.createdAt,
});

@Injectable()
export class DeliveryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** New deliveries are due at once. */
  async insert(deliveries: NewDelivery[], manager: EntityManager): Promise<DeliveryState[]> {
    if (deliveries.length === 0) {
      return [];
    }
    const rows = deliveries.map((d) =>
      manager.create(DeliveryEntity, {
        ...d,
        status: 'pending',
        attemptCount: 0,
        firstAttemptAt: null,
        lastAttemptAt: null,
        lastStatusCode: null,
        nextAttemptAt: d.createdAt,
        failureReason: null,
        leaseToken: null,
        leaseUntil: null,
      }),
    );
    await manager.insert(DeliveryEntity, rows);
    return rows.map(toDeliveryState);
  }

  /**
   * Reserves up to `limit` due attempts for this replica: rows another replica is claiming are
   * skipped (`SKIP LOCKED`), rows under an unexpired lease are not due, and a deleted subscription's
   * deliveries are never claimed. Per endpoint, at most its room: a full endpoint's deliveries are
   * not even candidates (so a backlog for one slow receiver cannot crowd out the others), and a busy
   * one gets only as many as it has room for; the rest stay due for a later claim. Returns the
   * claimed ids with their endpoints; `token` fences the lease.
   */
  async claimDue(
    now: Date,
    limit: number,
    leaseUntil: Date,
    token: string,
    room: EndpointRoom,
  ): Promise<ClaimedDelivery[]> {
    // `durability` turns `synchronous_commit` off for this statement's own transaction: a claim lost
    // with a crashed database only drops a lease, and the attempt that follows commits durably (after
    // the claim in the WAL) or not at all. It saves a WAL flush in the loop every attempt start waits on.
    const [rows] = await this.dataSource.query<[ClaimedDelivery[], number]>(
      `WITH durability AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true)),
       candidates AS (
         SELECT d.id, d.next_attempt_at, s.endpoint FROM "webhooks"."deliveries" d
         JOIN "webhooks"."subscriptions" s ON s.id = d.subscription_id AND s.deleted_at IS NULL
         WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)
           AND s.endpoint <> ALL($5::text[])
         ORDER BY d.next_attempt_at LIMIT $6
         FOR NO KEY UPDATE OF d SKIP LOCKED),
       ranked AS (
         SELECT c.*, row_number() OVER (PARTITION BY c.endpoint ORDER BY c.next_attempt_at, c.id) AS rank
         FROM candidates c),
       chosen AS (
         SELECT r.id, r.endpoint FROM ranked r
         LEFT JOIN unnest($7::text[], $8::int[]) AS busy(endpoint, room) ON busy.endpoint = r.endpoint
         WHERE r.rank <= COALESCE(busy.room, $9)
         ORDER BY r.next_attempt_at, r.id LIMIT $2)
       UPDATE "webhooks"."deliveries" d SET lease_token = $4, lease_until = $3
       FROM chosen CROSS JOIN durability WHERE d.id = chosen.id
       RETURNING d.id, chosen.endpoint`,
      [
        now,
        limit,
        leaseUntil,
        token,
        room.full,
        limit * CANDIDATES_PER_SLOT,
        room.busy.map((b) => b.endpoint),
        room.busy.map((b) => b.room),
        room.perEndpoint,
      ],
    );
    return rows.map((row) => ({ id: row.id, endpoint: row.endpoint }));
  }

  /**
   * Locks a claimed delivery for its attempt, subscription first (the order DELETE takes them in, so
   * the two cannot deadlock). The subscription stays share-locked until the attempt is recorded:
   * a concurrent DELETE waits for it. Null when the subscription is gone or the lease was lost.
   */
  async lockForAttempt(id: string, token: string, manager: EntityManager): Promise<LockedDelivery | null> {
    // WARNING: the order matters. `subscription` locks in its own (materialized) scan; the delivery is
    // locked by the outer FOR UPDATE, which only sees rows once the join has the subscription's.
    const [row] = await manager.query<LockedRow[]>(
      `WITH subscription AS MATERIALIZED (
         SELECT id, url, secret_sealed FROM "webhooks"."subscriptions"
         WHERE id = (SELECT subscription_id FROM "webhooks"."deliveries" WHERE id = $1) AND deleted_at IS NULL
         FOR SHARE)
       SELECT d.id, d.subscription_id, d.event_id, d.account_id, d.environment, d.event_type, d.body, d.status,
         d.attempt_count, d.first_attempt_at, d.last_attempt_at, d.last_status_code, d.next_attempt_at,
         d.failure_reason, d.created_at, s.url, s.secret_sealed
       FROM "webhooks"."deliveries" d JOIN subscription s ON s.id = d.subscription_id
       WHERE d.id = $1 AND d.lease_token = $2 AND d.status = 'pending'
       FOR UPDATE OF d`,
      [id, token],
    );
    if (!row) {
      return null;
    }
    return {
      id: row.id,
      subscriptionId: row.subscription_id,
      eventId: row.event_id,
      eventType: row.event_type,
      status: row.status as DeliveryStatus,
      attemptCount: row.attempt_count,
      firstAttemptAt: row.first_attempt_at,
      lastAttemptAt: row.last_attempt_at,
      lastStatusCode: row.last_status_code,
      nextAttemptAt: row.next_attempt_at,
      failureReason: row.failure_reason as FailureReason | null,
      createdAt: row.created_at,
      accountId: row.account_id,
      environment: row.environment,
      body: row.body,
      url: row.url,
      secretSealed: row.secret_sealed,
    };
  }

  /** The attempt and the delivery's new state, in one statement (one round trip while the locks are held). */
  async recordAttempt(
    delivery: LockedDelivery,
    attemptedAt: Date,
    outcome: AttemptOutcome,
    result: AttemptResult,
    manager: EntityManager,
  ): Promise<void> {
    await manager.query(
      `WITH attempt AS (
         INSERT INTO "webhooks"."delivery_attempts"
           (id, delivery_id, account_id, environment, attempt_number, attempted_at, duration_ms, status_code,
            response_body, error_code, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11))
       UPDATE "webhooks"."deliveries" SET status = $12, attempt_count = $5, first_attempt_at = $13,
         last_attempt_at = $6, last_status_code = $8, next_attempt_at = $14, failure_reason = $15,
         lease_token = NULL, lease_until = NULL
       WHERE id = $2`,
      [
        randomUUID(),
        delivery.id,
        delivery.accountId,
        delivery.environment,
        result.attemptCount,
        attemptedAt,
        outcome.durationMs,
        outcome.statusCode,
        outcome.responseBody,
        outcome.errorCode,
        outcome.error,
        result.status,
        result.firstAttemptAt,
        result.nextAttemptAt,
        result.failureReason,
      ],
    );
  }

  /** A deleted subscription's unfinished deliveries: never attempted again. */
  async cancelPending(subscriptionId: string, manager: EntityManager): Promise<void> {
    await manager.update(
      DeliveryEntity,
      { subscriptionId, status: 'pending' },
      { status: 'cancelled', nextAttemptAt: null, leaseToken: null, leaseUntil: null },
    );
  }
}
