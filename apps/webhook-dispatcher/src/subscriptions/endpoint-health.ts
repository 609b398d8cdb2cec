import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { newId } from '@cts/contracts';
import { UnitOfWork } from '@cts/persistence';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { type EndpointDisabledData } from '../events/internal-event.domain';
import { EventRepository } from '../events/event.repository';
import { buildWebhookPayload } from '../events/webhook-payload.domain';
import { healthAfterAttempt } from './endpoint-health.domain';
import { SubscriptionRepository } from './subscription.repository';

/** What the health check needs of an attempt just recorded. */
export interface AttemptedSubscription {
  subscriptionId: string;
  accountId: string;
  environment: string;
  url: string;
  /** The delivery's body: its `account` is the account's handle. */
  body: string;
  failingSince: Date | null;
}

/**
 * After each attempt: starts or stops the subscription's failure clock, and disables it once every
 * attempt failed for WEBHOOK_DISABLE_AFTER, telling the account with a `webhook.endpoint.disabled`
 * event (its other subscriptions and the events API). Nothing is written while an endpoint stays
 * healthy. Runs after the attempt's transaction, so it never waits on the row locks attempts hold.
 */
@Injectable()
export class EndpointHealth {
  private readonly logger = new Logger(EndpointHealth.name);

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly events: EventRepository,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {}

  async afterAttempt(attempted: AttemptedSubscription, succeeded: boolean, at: Date): Promise<void> {
    const change = healthAfterAttempt(attempted.failingSince, succeeded, at, this.settings.disableAfterMs);
    switch (change.kind) {
      case 'none':
        return;
      case 'recovered':
        return this.subscriptions.setFailingSince(attempted.subscriptionId, null);
      case 'started_failing':
        return this.subscriptions.setFailingSince(attempted.subscriptionId, change.at);
      case 'disable':
        return this.disable(attempted, change.failingSince);
    }
  }

  private async disable(attempted: AttemptedSubscription, failingSince: Date): Promise<void> {
    // Its deliveries are due at once; the scheduler's poll (every second) picks them up.
    await this.unitOfWork.run(async (tx) => {
      // Stamped now, not when the fatal attempt began (up to WEBHOOK_TIMEOUT_MS ago): a poller that
      // resumes from the newest `created_at` it saw must not find the event older than that.
      const at = this.settings.clock.now();
      const disabled = await this.subscriptions.disableFailing(
        attempted.subscriptionId,
        failingSince,
        at,
        tx.manager,
      );
      if (!disabled) {
        return;
      }
      await this.deliveries.pause(disabled.id, tx.manager);
      const data: EndpointDisabledData = {
        account_id: disabled.accountId,
        account: handleIn(attempted.body) ?? disabled.accountId,
        webhook_id: disabled.id,
        url: disabled.url,
        reason: 'endpoint_failing',
        failing_since: failingSince.toISOString(),
        disabled_at: at.toISOString(),
      };
      const id = newId('evt', at.getTime());
      const payload = buildWebhookPayload(
        { type: 'webhook.endpoint.disabled', data },
        { eventId: id, occurredAt: at },
        disabled.accountId,
      );
      this.logger.warn(`webhook ${disabled.id} disabled: every attempt failed since ${data.failing_since}`);
      await this.events.recordInternal(
        {
          id,
          messageId: randomUUID(),
          type: 'webhook.endpoint.disabled',
          environment: disabled.environment,
          accountIds: [disabled.accountId],
          data,
          occurredAt: at,
          createdAt: at,
        },
        JSON.stringify(payload),
        { except: disabled.id },
        tx.manager,
      );
    });
  }
}

/** The `account` of a delivery body (the receiving account's handle); null if unreadable. */
function handleIn(body: string): string | null {
  try {
    const account = (JSON.parse(body) as { account?: unknown }).account;
    return typeof account === 'string' ? account : null;
  } catch {
    return null;
  }
}
