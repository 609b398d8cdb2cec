import { Inject, Injectable, Logger } from '@nestjs/common';
import { webhookAttempts } from '@cts/messaging';
import { DataSource } from 'typeorm';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { deliveryHeaders } from '../signing/webhook-signature.domain';
import { SecretBox } from '../subscriptions/secret-box';
import { afterAttempt, isSuccess } from './attempt.domain';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { WebhookHttpClient } from './webhook-http-client';

export type AttemptReport = 'succeeded' | 'pending' | 'failed' | 'skipped';

/**
 * Makes one claimed attempt: lock, sign, POST, record, in one transaction. Holding the locks while
 * sending is what makes DELETE final: it waits for an attempt in flight and then no other starts.
 * If the process dies mid-attempt the transaction rolls back and the lease left by the claim
 * expires, so another replica tries again (at least once).
 */
@Injectable()
export class DeliveryAttempter {
  private readonly logger = new Logger(DeliveryAttempter.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly secrets: SecretBox,
    private readonly client: WebhookHttpClient,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {}

  async attempt(deliveryId: string, leaseToken: string): Promise<AttemptReport> {
    return this.dataSource.transaction(async (manager) => {
      const delivery = await this.deliveries.lockForAttempt(deliveryId, leaseToken, manager);
      if (!delivery) {
        return 'skipped';
      }
      const attemptedAt = this.settings.clock.now();
      const body = delivery.body;
      const headers = deliveryHeaders({
        secret: this.secrets.unseal(delivery.subscriptionId, delivery.secretSealed),
        webhookId: delivery.eventId,
        timestampSeconds: Math.floor(attemptedAt.getTime() / 1000),
        body,
        userAgent: this.settings.userAgent,
      });
      const outcome = await this.client.post(delivery.url, body, headers);
      const result = afterAttempt(delivery, outcome, attemptedAt, this.settings.retry, this.settings.random);
      await this.deliveries.recordAttempt(delivery, attemptedAt, outcome, result, manager);
      webhookAttempts.inc({
        outcome: isSuccess(outcome) ? 'succeeded' : outcome.statusCode === null ? 'no_response' : 'failed',
      });
      if (result.status !== 'succeeded') {
        this.logger.warn(
          `delivery ${delivery.id} attempt ${result.attemptCount} failed (${outcome.statusCode ?? outcome.error ?? 'no answer'}): ${
            result.status === 'failed'
              ? `giving up (${result.failureReason})`
              : `next at ${result.nextAttemptAt?.toISOString()}`
          }`,
        );
      }
      return result.status;
    });
  }
}
