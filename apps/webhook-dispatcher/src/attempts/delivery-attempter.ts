import { Inject, Injectable, Logger } from '@nestjs/common';
import { webhookAttempts } from '@cts/messaging';
import { DataSource, type EntityManager } from 'typeorm';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { deliveryHeaders } from '../signing/webhook-signature.domain';
import { SecretBox } from '../subscriptions/secret-box';
import { afterAttempt, isSuccess } from './attempt.domain';
import { DeliveryRepository, type LockedDelivery } from '../deliveries/delivery.repository';
import { EndpointSlots } from './endpoint-slots';
import { WebhookHttpClient } from './webhook-http-client';

/** What one call did: the delivery's state after its attempt, or `idle` when nothing was due. */
export type AttemptReport = 'succeeded' | 'pending' | 'failed' | 'idle';

/**
 * Makes the next due attempt: claim, sign, POST, record, in one transaction. Holding the locks while
 * sending is what makes DELETE final: it waits for an attempt in flight and then no other starts.
 * If the process dies mid-attempt the transaction rolls back with its connection and the delivery
 * is due again for any replica (at least once).
 */
@Injectable()
export class DeliveryAttempter {
  private readonly logger = new Logger(DeliveryAttempter.name);
  private readonly endpoints: EndpointSlots;
  private claiming: Promise<unknown> = Promise.resolve();
  private slotFreed: () => void = () => undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly secrets: SecretBox,
    private readonly client: WebhookHttpClient,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {
    this.endpoints = new EndpointSlots(settings.maxInFlightPerEndpoint);
  }

  /** Whether an attempt to `endpoint` may start now on this replica. */
  hasRoomFor(endpoint: string): boolean {
    return this.endpoints.hasRoom(endpoint);
  }

  /** Called whenever an endpoint's slot frees up: a delivery held back for it may go now. */
  onSlotFreed(listener: () => void): void {
    this.slotFreed = listener;
  }

  async attemptNext(): Promise<AttemptReport> {
    let endpoint: string | undefined;
    try {
      return await this.dataSource.transaction(async (manager) => {
        const delivery = await this.claim(manager);
        if (!delivery) {
          return 'idle';
        }
        endpoint = delivery.endpoint;
        return this.attempt(delivery, manager, () => {
          // The receiver is done with this attempt: its slot is free while the outcome is recorded.
          this.release(delivery.endpoint);
          endpoint = undefined;
        });
      });
    } finally {
      if (endpoint !== undefined) {
        this.release(endpoint);
      }
    }
  }

  private release(endpoint: string): void {
    this.endpoints.release(endpoint);
    this.slotFreed();
  }

  /**
   * One claim at a time on this replica, so the per-endpoint count it claims against is exact; the
   * endpoint's slot is taken before the next claim can look.
   */
  private claim(manager: EntityManager): Promise<LockedDelivery | null> {
    const claimed = this.claiming.then(async () => {
      const delivery = await this.deliveries.claimNext(
        this.settings.clock.now(),
        this.endpoints.full(),
        manager,
      );
      if (delivery) {
        this.endpoints.acquire(delivery.endpoint);
      }
      return delivery;
    });
    this.claiming = claimed.catch(() => undefined);
    return claimed;
  }

  private async attempt(
    delivery: LockedDelivery,
    manager: EntityManager,
    answered: () => void,
  ): Promise<AttemptReport> {
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
    answered();
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
  }
}
