import { type WebhookDelivery } from '@cts/contracts';

/**
 * `cancelled`: its subscription was deleted before it finished. Internal only: a deleted
 * subscription's log is no longer readable, so the API never shows this status.
 */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface DeliveryState {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  firstAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

export function toDeliveryResource(delivery: DeliveryState): WebhookDelivery {
  return {
    delivery_id: delivery.id,
    webhook_id: delivery.subscriptionId,
    event_id: delivery.eventId,
    event: delivery.eventType,
    // A cancelled delivery is never listed (its subscription is gone); `failed` if it ever were.
    status: delivery.status === 'cancelled' ? 'failed' : delivery.status,
    attempt_count: delivery.attemptCount,
    retry_count: Math.max(delivery.attemptCount - 1, 0),
    response_status_code: delivery.lastStatusCode,
    last_attempt_at: delivery.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    created_at: delivery.createdAt.toISOString(),
  };
}
