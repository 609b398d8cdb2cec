import { newId } from '@cts/contracts';
import { type WebhookPayload } from '../events/webhook-payload.domain';
import { type SubscriptionState } from '../subscriptions/subscription.domain';
import { type NewDelivery } from './delivery.repository';

/** A delivery of one event to one subscription: the body is fixed now, so every attempt sends the same bytes. */
export function newDelivery(
  subscription: Pick<SubscriptionState, 'id' | 'accountId'>,
  event: { id: string; type: string; environment: string },
  payload: WebhookPayload,
  now: Date,
): NewDelivery {
  return {
    id: newId('dlv', now.getTime()),
    subscriptionId: subscription.id,
    eventId: event.id,
    accountId: subscription.accountId,
    environment: event.environment,
    eventType: event.type,
    body: JSON.stringify(payload),
    createdAt: now,
  };
}
