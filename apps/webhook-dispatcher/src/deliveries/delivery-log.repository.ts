import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { type AttemptRecord, type DeliveryState } from './delivery.domain';
import { DeliveryAttemptEntity, DeliveryEntity } from './delivery.entity';
import { toDeliveryState } from './delivery.repository';

export interface DeliveryLogPage {
  deliveries: { delivery: DeliveryState; attempts: AttemptRecord[] }[];
  hasMore: boolean;
}

/** Reads a subscription's delivery log; response bodies are never selected. */
@Injectable()
export class DeliveryLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Newest first: `limit` deliveries after skipping `offset`, each with its attempts, oldest first. */
  async page(
    scope: { accountId: string; subscriptionId: string },
    limit: number,
    offset: number,
  ): Promise<DeliveryLogPage> {
    const rows = await this.dataSource.manager.find(DeliveryEntity, {
      where: { subscriptionId: scope.subscriptionId, accountId: scope.accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: offset,
      // One more than asked tells whether a next page exists.
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    const attempts =
      page.length === 0
        ? []
        : await this.dataSource.manager.find(DeliveryAttemptEntity, {
            select: {
              deliveryId: true,
              attemptNumber: true,
              attemptedAt: true,
              durationMs: true,
              statusCode: true,
              errorCode: true,
            },
            where: { deliveryId: In(page.map((row) => row.id)), accountId: scope.accountId },
            order: { attemptNumber: 'ASC' },
          });
    const byDelivery = new Map<string, AttemptRecord[]>();
    for (const attempt of attempts) {
      byDelivery.set(attempt.deliveryId, [...(byDelivery.get(attempt.deliveryId) ?? []), attempt]);
    }
    return {
      deliveries: page.map((row) => ({
        delivery: toDeliveryState(row),
        attempts: byDelivery.get(row.id) ?? [],
      })),
      hasMore: rows.length > limit,
    };
  }
}
