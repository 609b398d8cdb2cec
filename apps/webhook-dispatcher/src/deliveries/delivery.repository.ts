import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PreparedStatement } from '@cts/persistence';
import { type EntityManager, In } from 'typeorm';
import { type AttemptOutcome, type AttemptResult, type FailureReason } from '../attempts/attempt.domain';
import { type DeliveryState, type DeliveryStatus } from './delivery.domain';
import { DeliveryEntity } from './delivery.entity';
import { noChangePending } from '../subscriptions/subscription-change-lock';

export interface NewDelivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  accountId: string;
  environment: string;
  eventType: string;
  body: string;
  createdAt: Date;
  /** For a disabled subscription: waits, off the due index, until it is enabled (see `pause`). */
  waiting?: boolean;
}

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
  endpoint: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  endpoint_disabled: boolean;
}

/** A delivery locked for one attempt, with what sending needs. */
export interface LockedDelivery extends DeliveryState {
  accountId: string;
  environment: string;
  body: string;
  url: string;
  secretSealed: string;
  /** The subscription URL's origin, which the per-endpoint limit counts by. */
  endpoint: string;
  /** After a rotation: the previous secret, signing beside the current one until it expires. */
  previousSecret: { sealed: string; expiresAt: Date } | null;
  /** Since when every attempt to the subscription failed (its automatic disable's clock). */
  failingSince: Date | null;
  /** The subscription is disabled (only a `webhook.test` delivery is attempted then). */
  endpointDisabled: boolean;
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

/**
 * The due deliveries are picked from `deliveries` alone, walking the due index in order (a join with
 * `subscriptions` got a plan sorting every due row on each claim while the table had no statistics
 * yet, as during a burst). The subscription test sits in a sub-select that share-locks the row it
 * finds, skipping one a DELETE holds: that delivery is left for after the DELETE, which cancels it.
 * Due means a next attempt is set (a check ties it to `pending`); a row updated meanwhile is tested
 * again on its new version before it is locked. `SKIP LOCKED` does not skip the rows the claiming
 * transaction locked itself: a batch passes the ids it has claimed already. A subscription a DELETE
 * or PATCH is waiting to change is skipped too (`noChangePending`): a batch holding it goes on
 * claiming as its attempts are answered, and without that the change waited for the whole backlog.
 */
export const CLAIM_DUE = new PreparedStatement<LockedRow>(
  'webhooks.claim_due_deliveries',
  `WITH due AS (
     SELECT d.id FROM "webhooks"."deliveries" d
     WHERE d.next_attempt_at <= $1 AND d.id <> ALL($3::text[])
       AND EXISTS (
         SELECT FROM "webhooks"."subscriptions" s
         WHERE s.id = d.subscription_id AND s.deleted_at IS NULL AND s.endpoint <> ALL($2::text[])
           AND ($5::text IS NULL OR s.endpoint = $5::text)
           AND (s.disabled_at IS NULL OR d.event_type = 'webhook.test')
           AND ${noChangePending('s.id')}
         FOR SHARE SKIP LOCKED)
     ORDER BY d.next_attempt_at LIMIT $4
     FOR NO KEY UPDATE SKIP LOCKED)
   SELECT d.id, d.subscription_id, d.event_id, d.account_id, d.environment, d.event_type, d.body, d.status,
     d.attempt_count, d.first_attempt_at, d.last_attempt_at, d.last_status_code, d.next_attempt_at,
     d.failure_reason, d.created_at, s.url, s.secret_sealed, s.endpoint, s.previous_secret_sealed,
     s.previous_secret_expires_at, s.failing_since, s.disabled_at IS NOT NULL AS endpoint_disabled
   FROM due
   JOIN "webhooks"."deliveries" d ON d.id = due.id
   JOIN "webhooks"."subscriptions" s ON s.id = d.subscription_id`,
);

/**
 * Several attempts' log rows and their deliveries' new states, in one statement: the i-th element
 * of every array belongs to the i-th attempt.
 */
const RECORD_ATTEMPTS = new PreparedStatement<never>(
  'webhooks.record_attempts',
  `WITH attempt AS (
     INSERT INTO "webhooks"."delivery_attempts"
       (id, delivery_id, account_id, environment, attempt_number, attempted_at, duration_ms, status_code,
        response_body, error_code, error)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[],
       $7::int[], $8::int[], $9::text[], $10::text[], $11::text[]))
   UPDATE "webhooks"."deliveries" d SET status = r.status, attempt_count = r.attempt_count,
     first_attempt_at = r.first_attempt_at, last_attempt_at = r.attempted_at,
     last_status_code = r.status_code, next_attempt_at = r.next_attempt_at, failure_reason = r.failure_reason
   FROM unnest($2::text[], $12::text[], $5::int[], $13::timestamptz[], $6::timestamptz[], $8::int[],
     $14::timestamptz[], $15::text[])
     AS r(id, status, attempt_count, first_attempt_at, attempted_at, status_code, next_attempt_at, failure_reason)
   WHERE d.id = r.id`,
);

/** One attempt made, as recorded. */
export interface AttemptRecord {
  delivery: LockedDelivery;
  attemptedAt: Date;
  outcome: AttemptOutcome;
  result: AttemptResult;
}

@Injectable()
export class DeliveryRepository {
  /** New deliveries are due at once, unless `waiting`. */
  async insert(deliveries: NewDelivery[], manager: EntityManager): Promise<DeliveryState[]> {
    if (deliveries.length === 0) {
      return [];
    }
    const rows = deliveries.map(({ waiting, ...d }) =>
      manager.create(DeliveryEntity, {
        ...d,
        status: waiting ? 'waiting' : 'pending',
        attemptCount: 0,
        firstAttemptAt: null,
        lastAttemptAt: null,
        lastStatusCode: null,
        nextAttemptAt: waiting ? null : d.createdAt,
        failureReason: null,
      }),
    );
    await manager.insert(DeliveryEntity, rows);
    return rows.map(toDeliveryState);
  }

  /**
   * Takes up to `limit` due deliveries, oldest due first, for attempts in `manager`'s transaction:
   * each delivery locked for update, its subscription share-locked until the attempt is recorded, so a concurrent DELETE
   * waits for it and no attempt starts after it. Rows another attempt holds are skipped (`SKIP
   * LOCKED`) and never waited for, so replicas never take the same delivery and cannot deadlock
   * with a DELETE; a replica that dies mid-attempt releases its row with its connection. The
   * deliveries of `fullEndpoints` stay due for later, and `claimedAlready` (by this transaction)
   * are not taken twice; with `take.only`, only deliveries to that endpoint are taken. Empty when
   * nothing is due.
   */
  async claimDue(
    now: Date,
    take: { limit: number; only: string | null },
    fullEndpoints: string[],
    claimedAlready: string[],
    manager: EntityManager,
  ): Promise<LockedDelivery[]> {
    const rows = await CLAIM_DUE.run(manager, [now, fullEndpoints, claimedAlready, take.limit, take.only]);
    return rows.map((row) => ({
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
      endpoint: row.endpoint,
      previousSecret:
        row.previous_secret_sealed && row.previous_secret_expires_at
          ? { sealed: row.previous_secret_sealed, expiresAt: row.previous_secret_expires_at }
          : null,
      failingSince: row.failing_since,
      endpointDisabled: row.endpoint_disabled,
    }));
  }

  /**
   * The attempts and their deliveries' new states, in one statement: one round trip for a batch of
   * attempts while their locks are held.
   */
  async recordAttempts(records: readonly AttemptRecord[], manager: EntityManager): Promise<void> {
    if (records.length === 0) {
      return;
    }
    const column = <T>(pick: (record: AttemptRecord) => T): T[] => records.map(pick);
    await RECORD_ATTEMPTS.run(manager, [
      column(() => randomUUID()),
      column((r) => r.delivery.id),
      column((r) => r.delivery.accountId),
      column((r) => r.delivery.environment),
      column((r) => r.result.attemptCount),
      column((r) => r.attemptedAt),
      column((r) => r.outcome.durationMs),
      column((r) => r.outcome.statusCode),
      column((r) => r.outcome.responseBody),
      column((r) => r.outcome.errorCode),
      column((r) => r.outcome.error),
      column((r) => r.result.status),
      column((r) => r.result.firstAttemptAt),
      column((r) => r.result.nextAttemptAt),
      column((r) => r.result.failureReason),
    ]);
  }

  /**
   * A disabled subscription's unfinished deliveries wait, off the due index (a claim would walk past
   * each of them every time). A test delivery stays due: it is sent to a disabled endpoint too.
   */
  async pause(subscriptionId: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE "webhooks"."deliveries" SET status = 'waiting', next_attempt_at = NULL
       WHERE subscription_id = $1 AND status = 'pending' AND event_type <> 'webhook.test'`,
      [subscriptionId],
    );
  }

  /**
   * An enabled subscription's waiting deliveries are due at once, except those whose 24 h retry
   * window (from their first attempt, or creation if never tried) has passed: they fail.
   */
  async resume(subscriptionId: string, windowStart: Date, now: Date, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE "webhooks"."deliveries" SET
         status = CASE WHEN COALESCE(first_attempt_at, created_at) < $2 THEN 'failed' ELSE 'pending' END,
         failure_reason = CASE WHEN COALESCE(first_attempt_at, created_at) < $2 THEN 'retries_exhausted' END,
         next_attempt_at = CASE WHEN COALESCE(first_attempt_at, created_at) < $2 THEN NULL ELSE $3::timestamptz END
       WHERE subscription_id = $1 AND status = 'waiting'`,
      [subscriptionId, windowStart, now],
    );
  }

  /** The delivery of an event to a subscription, if any. */
  async find(subscriptionId: string, eventId: string, manager: EntityManager): Promise<DeliveryState | null> {
    const row = await manager.findOneBy(DeliveryEntity, { subscriptionId, eventId });
    return row ? toDeliveryState(row) : null;
  }

  /** A deleted subscription's unfinished deliveries: never attempted again. */
  async cancelPending(subscriptionId: string, manager: EntityManager): Promise<void> {
    await manager.update(
      DeliveryEntity,
      { subscriptionId, status: In(['pending', 'waiting']) },
      { status: 'cancelled', nextAttemptAt: null },
    );
  }
}
