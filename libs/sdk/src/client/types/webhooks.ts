/**
 * The event types a webhook can subscribe to: spec §6.1 and the service's additions (docs/events.md).
 * A copy of @cts/contracts' list, which the browser bundle cannot import (zod, uuid, tracing);
 * webhook-event-types.spec keeps the two equal.
 */
export const WEBHOOK_EVENT_TYPES = [
  'transfer.initiated',
  'transfer.confirmed',
  'transfer.failed',
  'agent.transaction.pending_approval',
  'agent.transaction.approved',
  'agent.transaction.rejected',
  'agent.transaction.expired',
  'agent.transaction.failed',
  'agent.policy.updated',
  'agent.created',
] as const;

/** One of WEBHOOK_EVENT_TYPES; the service may add types, so any string is accepted too. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | (string & NonNullable<unknown>);

/** Spec §2.7. */
export interface Webhook {
  webhook_id: string;
  url: string;
  events: WebhookEventType[];
  created_at: string;
}

/** The create response: `secret` (`whsec_…`) is returned this once only. */
export interface CreatedWebhook extends Webhook {
  secret: string;
}

export interface WebhookList {
  webhooks: Webhook[];
}

export interface CreateWebhookInput {
  /** `https://` only. */
  url: string;
  events: WebhookEventType[];
}

/** The spec fixes only status codes and retry counts; the rest follows the dispatcher's log. */
export interface WebhookDelivery {
  delivery_id: string;
  event_id?: string;
  event?: string;
  status?: 'pending' | 'succeeded' | 'failed';
  attempt_count?: number;
  retry_count: number;
  /** HTTP status of the last attempt; `null` before any answer (timeout, refused connection). */
  response_status_code: number | null;
  last_attempt_at?: string | null;
  next_attempt_at?: string | null;
  created_at?: string;
  /** Why a delivery ended `failed`: `endpoint_gone` (410), `retries_exhausted`. */
  failure_reason?: string | null;
  attempts?: WebhookDeliveryAttempt[];
}

export interface WebhookDeliveryAttempt {
  attempt_number: number;
  attempted_at: string;
  duration_ms: number;
  response_status_code: number | null;
  /** `timeout`, `dns_error`, `connection_refused`, `connection_error`, `tls_error`, `destination_refused`. */
  error: string | null;
}

export interface WebhookDeliveryList {
  deliveries: WebhookDelivery[];
  limit?: number;
  offset?: number;
  has_more?: boolean;
}
