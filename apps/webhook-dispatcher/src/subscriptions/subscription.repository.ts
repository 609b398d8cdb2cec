import { Injectable } from '@nestjs/common';
import { type Environment, type WebhookDisabledReason, type WebhookEventType } from '@cts/contracts';
import { DataSource, type EntityManager, IsNull } from 'typeorm';
import { endpointOf, type SubscriptionState } from './subscription.domain';
import { SubscriptionEntity } from './subscription.entity';
import { lockForChange } from './subscription-change-lock';

const toState = (row: SubscriptionEntity): SubscriptionState => ({
  id: row.id,
  accountId: row.accountId,
  environment: row.environment as Environment,
  url: row.url,
  events: row.events as WebhookEventType[],
  createdAt: row.createdAt,
  disabledAt: row.disabledAt,
  disabledReason: row.disabledReason as WebhookDisabledReason | null,
  failingSince: row.failingSince,
  previousSecretExpiresAt: row.previousSecretExpiresAt,
});

/** A change asked by PATCH: only the fields given. */
export interface SubscriptionPatch {
  url?: string;
  events?: WebhookEventType[];
  disabled?: boolean;
}

/** Every query is scoped by account and environment: another account's webhook does not exist. */
@Injectable()
export class SubscriptionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    subscription: SubscriptionState,
    secretSealed: string,
    manager: EntityManager,
  ): Promise<SubscriptionState> {
    const row = manager.create(SubscriptionEntity, {
      ...subscription,
      endpoint: endpointOf(subscription.url),
      secretSealed,
      deletedAt: null,
      previousSecretSealed: null,
    });
    return toState(await manager.save(row));
  }

  async listActive(accountId: string, environment: Environment): Promise<SubscriptionState[]> {
    const rows = await this.dataSource.manager.find(SubscriptionEntity, {
      where: { accountId, environment, deletedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toState);
  }

  async findActive(
    accountId: string,
    environment: Environment,
    id: string,
    manager: EntityManager = this.dataSource.manager,
    options: { forShare?: boolean } = {},
  ): Promise<SubscriptionState | null> {
    const row = await manager.findOne(SubscriptionEntity, {
      where: { id, accountId, environment, deletedAt: IsNull() },
      ...(options.forShare ? { lock: { mode: 'pessimistic_read' as const } } : {}),
    });
    return row ? toState(row) : null;
  }

  /**
   * Marks it deleted. WARNING: this row update waits for attempts in flight (they hold the row
   * `FOR SHARE` while they send), so once it commits no attempt of the subscription is running
   * and none can start; from the moment it waits no claim takes its deliveries (`lockForChange`).
   */
  async markDeleted(
    accountId: string,
    environment: Environment,
    id: string,
    at: Date,
    manager: EntityManager,
  ): Promise<boolean> {
    await lockForChange(id, manager);
    const [rows] = await manager.query<[unknown[], number]>(
      `UPDATE "webhooks"."subscriptions" SET deleted_at = $4
       WHERE id = $1 AND account_id = $2 AND environment = $3 AND deleted_at IS NULL RETURNING id`,
      [id, accountId, environment, at],
    );
    return rows.length > 0;
  }

  /**
   * Live subscriptions of the account in this environment, counted under a transaction-scoped lock
   * of that account and environment, so concurrent creates cannot both pass the cap.
   */
  async countActiveLocked(
    accountId: string,
    environment: Environment,
    manager: EntityManager,
  ): Promise<number> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `webhooks:${accountId}:${environment}`,
    ]);
    const [{ count }] = await manager.query<[{ count: number }]>(
      `SELECT count(*)::int AS count FROM "webhooks"."subscriptions"
       WHERE account_id = $1 AND environment = $2 AND deleted_at IS NULL`,
      [accountId, environment],
    );
    return count;
  }

  /**
   * Applies a PATCH. Disabling by hand keeps an automatic disable's reason and time; enabling
   * clears both and the failure clock. A new URL restarts the failure clock too: the old
   * endpoint's failures must not disable another one. WARNING: this row update waits for attempts in flight, as
   * DELETE does, so once it commits no attempt runs with the old URL or state.
   */
  async update(
    accountId: string,
    environment: Environment,
    id: string,
    patch: SubscriptionPatch,
    at: Date,
    manager: EntityManager,
  ): Promise<SubscriptionState | null> {
    await lockForChange(id, manager);
    const [rows] = await manager.query<[SubscriptionEntity[], number]>(
      `UPDATE "webhooks"."subscriptions" SET
         url = COALESCE($4, url),
         endpoint = COALESCE($5, endpoint),
         events = COALESCE($6::text[], events),
         disabled_at = CASE WHEN $7::boolean IS NULL THEN disabled_at
           WHEN $7 THEN COALESCE(disabled_at, $8) ELSE NULL END,
         disabled_reason = CASE WHEN $7::boolean IS NULL THEN disabled_reason
           WHEN $7 THEN COALESCE(disabled_reason, 'manual') ELSE NULL END,
         failing_since = CASE WHEN $7::boolean IS FALSE OR $4::text <> url THEN NULL ELSE failing_since END
       WHERE id = $1 AND account_id = $2 AND environment = $3 AND deleted_at IS NULL
       RETURNING id, account_id AS "accountId", environment, url, events, created_at AS "createdAt",
         disabled_at AS "disabledAt", disabled_reason AS "disabledReason", failing_since AS "failingSince",
         previous_secret_expires_at AS "previousSecretExpiresAt"`,
      [
        id,
        accountId,
        environment,
        patch.url ?? null,
        patch.url === undefined ? null : endpointOf(patch.url),
        patch.events ?? null,
        patch.disabled ?? null,
        at,
      ],
    );
    const [row] = rows;
    return row ? toState(row) : null;
  }

  /** The new secret; the current one becomes the previous, signing beside it until `previousExpiresAt`. */
  async rotateSecret(
    accountId: string,
    environment: Environment,
    id: string,
    secretSealed: string,
    previousExpiresAt: Date,
    manager: EntityManager,
  ): Promise<SubscriptionState | null> {
    await manager.query(
      `UPDATE "webhooks"."subscriptions" SET previous_secret_sealed = secret_sealed,
         secret_sealed = $4, previous_secret_expires_at = $5
       WHERE id = $1 AND account_id = $2 AND environment = $3 AND deleted_at IS NULL`,
      [id, accountId, environment, secretSealed, previousExpiresAt],
    );
    return this.findActive(accountId, environment, id, manager);
  }

  /** The failure clock starts (first failure after a success) or stops (a success). */
  async setFailingSince(id: string, since: Date | null): Promise<void> {
    await this.dataSource.query(
      since === null
        ? `UPDATE "webhooks"."subscriptions" SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL`
        : `UPDATE "webhooks"."subscriptions" SET failing_since = $2 WHERE id = $1 AND failing_since IS NULL`,
      since === null ? [id] : [id, since],
    );
  }

  /**
   * Disables a failing endpoint, once: null when it is already disabled, deleted, or has
   * succeeded since (`failing_since` moved), so concurrent attempts raise one event.
   */
  async disableFailing(
    id: string,
    failingSince: Date,
    at: Date,
    manager: EntityManager,
  ): Promise<SubscriptionState | null> {
    const [rows] = await manager.query<[SubscriptionEntity[], number]>(
      `UPDATE "webhooks"."subscriptions" SET disabled_at = $3, disabled_reason = 'endpoint_failing'
       WHERE id = $1 AND failing_since = $2 AND disabled_at IS NULL AND deleted_at IS NULL
       RETURNING id, account_id AS "accountId", environment, url, events, created_at AS "createdAt",
         disabled_at AS "disabledAt", disabled_reason AS "disabledReason", failing_since AS "failingSince",
         previous_secret_expires_at AS "previousSecretExpiresAt"`,
      [id, failingSince, at],
    );
    const [row] = rows;
    return row ? toState(row) : null;
  }
}
