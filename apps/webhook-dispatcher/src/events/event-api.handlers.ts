import { Inject, Injectable } from '@nestjs/common';
import {
  type Envelope,
  type EventResource,
  fail,
  GetEvent,
  ListEvents,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { type StoredEvent, EventRepository } from './event.repository';
import { retentionCutoff } from './event-retention';
import { parseSourceEvent } from './source-event.domain';
import { buildWebhookPayload } from './webhook-payload.domain';

/**
 * The events API (Stripe-style recovery): an account's events of one environment, kept 30 days,
 * each exactly as its webhook deliveries carry it (rebuilt from the stored event by the same
 * function that built their bodies), with `created_at` added when its deliveries have none.
 */
@Injectable()
export class EventApiHandlers {
  constructor(
    private readonly events: EventRepository,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {}

  @OnCommand(ListEvents)
  async list(
    message: Envelope<RequestOf<typeof ListEvents>>,
  ): Promise<Result<ResponseOf<typeof ListEvents>>> {
    const { account_id, environment, limit, starting_after, types, created_after, created_before } =
      message.payload;
    const notBefore = retentionCutoff(this.settings.clock.now());
    let after: StoredEvent | null = null;
    if (starting_after !== undefined) {
      after = await this.events.findForAccount(starting_after, account_id, environment, notBefore);
      if (!after) {
        return fail(
          'invalid_request',
          'starting_after is not an event of this account (events are kept 30 days)',
          {
            param: 'starting_after',
          },
        );
      }
    }
    const page = await this.events.pageForAccount({
      accountId: account_id,
      environment,
      notBefore,
      types,
      createdAfter: created_after === undefined ? null : new Date(created_after),
      createdBefore: created_before === undefined ? null : new Date(created_before),
      after,
      limit: limit + 1,
    });
    const events = page.slice(0, limit).flatMap((stored) => {
      const resource = toEventResource(stored, account_id);
      return resource ? [resource] : [];
    });
    return ok({ events, has_more: page.length > limit });
  }

  @OnCommand(GetEvent)
  async get(message: Envelope<RequestOf<typeof GetEvent>>): Promise<Result<ResponseOf<typeof GetEvent>>> {
    const { account_id, environment, event_id } = message.payload;
    const notBefore = retentionCutoff(this.settings.clock.now());
    const stored = await this.events.findForAccount(event_id, account_id, environment, notBefore);
    const resource = stored ? toEventResource(stored, account_id) : null;
    return resource ? ok(resource) : fail('event_not_found', 'No such event (events are kept 30 days)');
  }
}

/**
 * What its deliveries to `accountId` carry, with `created_at`: the deliveries' own when they have
 * one (a transfer's, an agent's), else when the event was recorded. Either way the stored time the
 * list is ordered and filtered by (ingestion stores the subject's `created_at`). Null if the event
 * does not concern the account.
 */
export function toEventResource(stored: StoredEvent, accountId: string): EventResource | null {
  const event = parseSourceEvent(stored.type, stored.data);
  const payload = event
    ? buildWebhookPayload(event, { eventId: stored.id, occurredAt: stored.occurredAt }, accountId)
    : null;
  if (!payload) {
    return null;
  }
  return (
    'created_at' in payload ? payload : { ...payload, created_at: stored.createdAt.toISOString() }
  ) as EventResource;
}
