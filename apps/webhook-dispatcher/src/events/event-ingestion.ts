import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Envelope, newId } from '@cts/contracts';
import { SERVICE_NAME } from '@cts/platform';
import { DeliveryScheduler } from '../attempts/delivery-scheduler';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { EventRepository, type StoredEvent } from './event.repository';
import { parseSourceEvent } from './source-event.domain';
import { buildWebhookPayload, eventAudience } from './webhook-payload.domain';

/**
 * Fan-out of one consumed event: store it (for replay), then one delivery per live subscription of
 * every account it concerns, all in one statement recorded in the inbox, so a redelivered message
 * (same envelope id) has no second effect.
 */
@Injectable()
export class EventIngestion {
  private readonly logger = new Logger(EventIngestion.name);

  constructor(
    private readonly events: EventRepository,
    private readonly scheduler: DeliveryScheduler,
    @Inject(SERVICE_NAME) private readonly consumer: string,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {}

  async ingest(message: Envelope): Promise<void> {
    const event = parseSourceEvent(message.type, message.payload);
    const environment = message.environment;
    if (!event || !environment) {
      // Validated against its contract already; an event without an environment reaches no webhook.
      this.logger.warn(
        `ignoring ${message.type} ${message.id}: ${event ? 'no environment' : 'unknown event type'}`,
      );
      return;
    }
    const now = this.settings.clock.now();
    const audience = eventAudience(event);
    const stored: StoredEvent = {
      id: newId('evt', now.getTime()),
      messageId: message.id,
      type: event.type,
      environment,
      accountIds: audience.map((member) => member.accountId),
      data: event.data,
      occurredAt: new Date(message.occurred_at),
      createdAt: now,
    };
    const bodies = [...new Set(stored.accountIds)].flatMap((accountId) => {
      const payload = buildWebhookPayload(
        event,
        { eventId: stored.id, occurredAt: stored.occurredAt },
        accountId,
      );
      return payload ? [{ accountId, body: JSON.stringify(payload) }] : [];
    });
    const { duplicate, endpoints } = await this.events.ingestOnce(
      { messageId: message.id, consumer: this.consumer },
      stored,
      bodies,
    );
    if (!duplicate && endpoints.length > 0) {
      this.scheduler.kickFor(endpoints);
    }
  }
}
