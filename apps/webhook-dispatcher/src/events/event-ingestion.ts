import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Envelope, newId } from '@cts/contracts';
import { SERVICE_NAME } from '@cts/runtime';
import { DeliveryScheduler } from '../attempts/delivery-scheduler';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { EventRepository, type IngestedEvent, type StoredEvent } from './event.repository';
import { parseSourceEvent, type SourceEvent } from './source-event.domain';
import { buildWebhookPayload, eventAudience, subjectCreatedAt } from './webhook-payload.domain';

/**
 * Fan-out of consumed events: store each (for replay), then one delivery per live subscription of
 * every account it concerns. A batch (a run of one partition's messages) is one statement recorded
 * in the inbox, so a redelivered message (same envelope id), in the batch or later, has no second
 * effect, and a failure leaves nothing of the batch behind.
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

  async ingest(messages: Envelope[]): Promise<void> {
    const now = this.settings.clock.now();
    // Events of a batch share their creation time: ids sorted in message order keep the events
    // API's order (newest first by time, then id) the order they were published in.
    const ids = messages.map(() => newId('evt', now.getTime())).sort();
    const batch = messages.flatMap((message, i) => {
      const prepared = this.prepare(message, ids[i] ?? newId('evt', now.getTime()), now);
      return prepared ? [prepared] : [];
    });
    const { endpoints } = await this.events.ingestBatch(this.consumer, batch, now);
    if (endpoints.length > 0) {
      // The lanes are woken at once for what was just stored, not at their next poll.
      this.scheduler.kickFor(endpoints);
    }
  }

  /** The event to store and each audience account's body; null for one no webhook can take. */
  private prepare(message: Envelope, id: string, now: Date): IngestedEvent | null {
    const event = parseSourceEvent(message.type, message.payload);
    const environment = message.environment;
    if (!event || !environment) {
      // Validated against its contract already; an event without an environment reaches no webhook.
      this.logger.warn(
        `ignoring ${message.type} ${message.id}: ${event ? 'no environment' : 'unknown event type'}`,
      );
      return null;
    }
    const audience = eventAudience(event);
    const stored: StoredEvent = {
      id,
      messageId: message.id,
      type: event.type,
      environment,
      accountIds: audience.map((member) => member.accountId),
      data: event.data,
      occurredAt: new Date(message.occurred_at),
      // The time the events API shows and lists it by: its deliveries' own `created_at` if they
      // carry one, so the event and its deliveries agree (docs/decisions.md, "Events API").
      createdAt: createdAtOf(event, now),
    };
    const bodies = [...new Set(stored.accountIds)].flatMap((accountId) => {
      const payload = buildWebhookPayload(
        event,
        { eventId: stored.id, occurredAt: stored.occurredAt },
        accountId,
      );
      return payload ? [{ accountId, body: JSON.stringify(payload) }] : [];
    });
    return { event: stored, bodies };
  }
}

function createdAtOf(event: SourceEvent, recordedAt: Date): Date {
  const own = subjectCreatedAt(event);
  return own === null ? recordedAt : new Date(own);
}
