import { Inject, Injectable } from '@nestjs/common';
import {
  type Envelope,
  fail,
  ListWebhookDeliveries,
  ok,
  ReplayWebhookEvent,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { UnitOfWork } from '@cts/persistence';
import { OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { EventRepository } from '../events/event.repository';
import { retentionCutoff } from '../events/event-retention';
import { parseSourceEvent } from '../events/source-event.domain';
import { buildWebhookPayload } from '../events/webhook-payload.domain';
import { SubscriptionRepository } from '../subscriptions/subscription.repository';
import { DeliveryScheduler } from '../attempts/delivery-scheduler';
import { toDeliveryResource } from './delivery.domain';
import { DeliveryLogRepository } from './delivery-log.repository';
import { DeliveryRepository } from './delivery.repository';
import { newDelivery } from './new-delivery';

@Injectable()
export class DeliveryHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly subscriptions: SubscriptionRepository,
    private readonly events: EventRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly log: DeliveryLogRepository,
    private readonly scheduler: DeliveryScheduler,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

  @OnCommand(ListWebhookDeliveries)
  async list(
    message: Envelope<RequestOf<typeof ListWebhookDeliveries>>,
  ): Promise<Result<ResponseOf<typeof ListWebhookDeliveries>>> {
    const { account_id, environment, webhook_id, limit, offset } = message.payload;
    if (!(await this.subscriptions.findActive(account_id, environment, webhook_id))) {
      return fail('webhook_not_found', 'No such webhook');
    }
    const page = await this.log.page({ accountId: account_id, subscriptionId: webhook_id }, limit, offset);
    return ok({
      deliveries: page.deliveries.map(({ delivery, attempts }) => toDeliveryResource(delivery, attempts)),
      has_more: page.hasMore,
    });
  }

  /**
   * A new delivery of a stored event to this subscription, due at once. Only an event of the last
   * 30 days, of the subscription's environment, that concerned its account: anything else is
   * `event_not_found`, indistinguishable from an unknown id.
   */
  @OnCommand(ReplayWebhookEvent)
  async replay(
    message: Envelope<RequestOf<typeof ReplayWebhookEvent>>,
  ): Promise<Result<ResponseOf<typeof ReplayWebhookEvent>>> {
    const { account_id, environment, webhook_id, event_id } = message.payload;
    const subscription = await this.subscriptions.findActive(account_id, environment, webhook_id);
    if (!subscription) {
      return fail('webhook_not_found', 'No such webhook');
    }
    const now = this.settings.clock.now();
    const stored = await this.events.findRecent(event_id, environment, retentionCutoff(now));
    const event =
      stored && stored.accountIds.includes(account_id) ? parseSourceEvent(stored.type, stored.data) : null;
    const payload =
      stored && event
        ? buildWebhookPayload(event, { eventId: stored.id, occurredAt: stored.occurredAt }, account_id)
        : null;
    if (!stored || !payload) {
      return fail('event_not_found', 'No such event for this webhook (events are kept 30 days)');
    }
    // Once per command: a redelivered replay answers with the first delivery instead of a second one.
    // Read again under a share lock: an enable committing meanwhile resumes this delivery too.
    const { duplicate, value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
      const current = await this.subscriptions.findActive(account_id, environment, webhook_id, tx.manager, {
        forShare: true,
      });
      if (!current) {
        return fail('webhook_not_found', 'No such webhook');
      }
      const waiting = current.disabledAt !== null;
      const [delivery] = await this.deliveries.insert(
        [{ ...newDelivery(current, stored, payload, now), waiting }],
        tx.manager,
      );
      return delivery ? ok(toDeliveryResource(delivery, [])) : fail('webhook_not_found', 'No such webhook');
    });
    if (!duplicate) {
      this.scheduler.kick();
    }
    return value;
  }
}
