import { Injectable } from '@nestjs/common';
import { type Environment, type WebhookEventType } from '@cts/contracts';
import { DataSource, type EntityManager, IsNull } from 'typeorm';
import { endpointOf, type SubscriptionState } from './subscription.domain';
import { SubscriptionEntity } from './subscription.entity';

const toState = (row: SubscriptionEntity): SubscriptionState => ({
  id: row.id,
  accountId: row.accountId,
  environment: row.environment as Environment,
  url: row.url,
  events: row.events as WebhookEventType[],
  createdAt: row.createdAt,
});

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
  ): Promise<SubscriptionState | null> {
    const row = await manager.findOneBy(SubscriptionEntity, {
      id,
      accountId,
      environment,
      deletedAt: IsNull(),
    });
    return row ? toState(row) : null;
  }

  /**
   * Marks it deleted. WARNING: this row update waits for attempts in flight (they hold the row
   * `FOR SHARE` while they send), so once it commits no attempt of the subscription is running
   * and none can start.
   */
  async markDeleted(
    accountId: string,
    environment: Environment,
    id: string,
    at: Date,
    manager: EntityManager,
  ): Promise<boolean> {
    const [rows] = await manager.query<[unknown[], number]>(
      `UPDATE "webhooks"."subscriptions" SET deleted_at = $4
       WHERE id = $1 AND account_id = $2 AND environment = $3 AND deleted_at IS NULL RETURNING id`,
      [id, accountId, environment, at],
    );
    return rows.length > 0;
  }
}
