import {
  WebhookAttemptError,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookFailureReason,
} from '@cts/contracts';

/**
 * `cancelled`: its subscription was deleted before it finished. Internal only: a deleted
 * subscription's log is no longer readable, so the API never shows this status.
 * `waiting`: its subscription is disabled; not due (no next attempt) until it is enabled. Shown as
 * `pending` with no `next_attempt_at`.
 */
export type DeliveryStatus = 'pending' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';

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
  failureReason: WebhookFailureReason | null;
  createdAt: Date;
}

/** One attempt as the log shows it: what came back, never the response body. */
export interface AttemptRecord {
  attemptNumber: number;
  attemptedAt: Date;
  durationMs: number;
  statusCode: number | null;
  /** As stored; an unknown value (or none, on an old row) reads as `connection_error`. */
  errorCode: string | null;
}

export function toAttemptResource(attempt: AttemptRecord): WebhookDeliveryAttempt {
  const known = WebhookAttemptError.safeParse(attempt.errorCode);
  return {
    attempt_number: attempt.attemptNumber,
    attempted_at: attempt.attemptedAt.toISOString(),
    duration_ms: Math.max(0, Math.round(attempt.durationMs)),
    response_status_code: attempt.statusCode,
    error: attempt.statusCode !== null ? null : known.success ? known.data : 'connection_error',
  };
}

/** `attempts` oldest first; a new delivery has none. */
export function toDeliveryResource(
  delivery: DeliveryState,
  attempts: readonly AttemptRecord[] = [],
): WebhookDelivery {
  return {
    delivery_id: delivery.id,
    webhook_id: delivery.subscriptionId,
    event_id: delivery.eventId,
    event: delivery.eventType,
    // A cancelled delivery is never listed (its subscription is gone); `failed` if it ever were.
    status:
      delivery.status === 'cancelled'
        ? 'failed'
        : delivery.status === 'waiting'
          ? 'pending'
          : delivery.status,
    attempt_count: delivery.attemptCount,
    retry_count: Math.max(delivery.attemptCount - 1, 0),
    response_status_code: delivery.lastStatusCode,
    last_attempt_at: delivery.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    created_at: delivery.createdAt.toISOString(),
    failure_reason: delivery.status === 'failed' ? delivery.failureReason : null,
    attempts: [...attempts].sort((a, b) => a.attemptNumber - b.attemptNumber).map(toAttemptResource),
  };
}
