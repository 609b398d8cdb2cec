import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { type AttemptOutcome, type AttemptResult } from '../attempts/attempt.domain';
import { type DeliveryState, type DeliveryStatus } from './delivery.domain';
import { DeliveryAttemptEntity, DeliveryEntity } from './delivery.entity';

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

/** A delivery locked for one attempt, with what sending needs. */
export interface LockedDelivery extends DeliveryState {
  accountId: string;
  environment: string;
  body: string;
  url: string;
  secretSealed: string;
}

const toState = (row: DeliveryEntity): DeliveryState => ({
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
        leaseToken: null,
        leaseUntil: null,
      }),
    );
    await manager.insert(DeliveryEntity, rows);
    return rows.map(toState);
  }

  /**
   * Reserves up to `limit` due attempts for this replica: rows another replica is claiming are
   * skipped (`SKIP LOCKED`), rows under an unexpired lease are not due, and a deleted subscription's
   * deliveries are never claimed. Returns the claimed ids; `token` fences the lease.
   */
  async claimDue(now: Date, limit: number, leaseUntil: Date, token: string): Promise<string[]> {
    const [rows] = await this.dataSource.query<[{ id: string }[], number]>(
      `UPDATE "webhooks"."deliveries" SET lease_token = $4, lease_until = $3
       WHERE id IN (
         SELECT d.id FROM "webhooks"."deliveries" d
         JOIN "webhooks"."subscriptions" s ON s.id = d.subscription_id AND s.deleted_at IS NULL
         WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)
         ORDER BY d.next_attempt_at LIMIT $2
         FOR NO KEY UPDATE OF d SKIP LOCKED)
       RETURNING id`,
      [now, limit, leaseUntil, token],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Locks a claimed delivery for its attempt, subscription first (the order DELETE takes them in, so
   * the two cannot deadlock). The subscription stays share-locked until the attempt is recorded:
   * a concurrent DELETE waits for it. Null when the subscription is gone or the lease was lost.
   */
  async lockForAttempt(id: string, token: string, manager: EntityManager): Promise<LockedDelivery | null> {
    const [head] = await manager.query<{ subscription_id: string }[]>(
      `SELECT subscription_id FROM "webhooks"."deliveries" WHERE id = $1`,
      [id],
    );
    if (!head) {
      return null;
    }
    const [subscription] = await manager.query<{ url: string; secret_sealed: string }[]>(
      `SELECT url, secret_sealed FROM "webhooks"."subscriptions" WHERE id = $1 AND deleted_at IS NULL FOR SHARE`,
      [head.subscription_id],
    );
    if (!subscription) {
      return null;
    }
    const row = await manager.findOne(DeliveryEntity, {
      where: { id, leaseToken: token, status: 'pending' },
      lock: { mode: 'pessimistic_write' },
    });
    if (!row) {
      return null;
    }
    return {
      ...toState(row),
      accountId: row.accountId,
      environment: row.environment,
      body: row.body,
      url: subscription.url,
      secretSealed: subscription.secret_sealed,
    };
  }

  async recordAttempt(
    delivery: LockedDelivery,
    attemptedAt: Date,
    outcome: AttemptOutcome,
    result: AttemptResult,
    manager: EntityManager,
  ): Promise<void> {
    await manager.insert(DeliveryAttemptEntity, {
      id: randomUUID(),
      deliveryId: delivery.id,
      accountId: delivery.accountId,
      environment: delivery.environment,
      attemptNumber: result.attemptCount,
      attemptedAt,
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      responseBody: outcome.responseBody,
      error: outcome.error,
    });
    await manager.update(
      DeliveryEntity,
      { id: delivery.id },
      {
        status: result.status,
        attemptCount: result.attemptCount,
        firstAttemptAt: result.firstAttemptAt,
        lastAttemptAt: attemptedAt,
        lastStatusCode: outcome.statusCode,
        nextAttemptAt: result.nextAttemptAt,
        leaseToken: null,
        leaseUntil: null,
      },
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

  /** Newest first. */
  async listForSubscription(subscriptionId: string, limit: number): Promise<DeliveryState[]> {
    const rows = await this.dataSource.manager.find(DeliveryEntity, {
      where: { subscriptionId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
    return rows.map(toState);
  }
}
