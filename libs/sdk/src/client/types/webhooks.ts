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
  'agent.x402.paid',
  'webhook.endpoint.disabled',
] as const;

/** Sent by `testWebhook` to one endpoint; not subscribable, but listed by `events()`. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** One of WEBHOOK_EVENT_TYPES; the service may add types, so any string is accepted too. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | (string & NonNullable<unknown>);

/** Spec §2.7, with its state. */
export interface Webhook {
  webhook_id: string;
  url: string;
  events: WebhookEventType[];
  created_at: string;
  /** A disabled endpoint gets no attempts; its deliveries wait (24 h retry window) until enabled. */
  disabled?: boolean;
  /** `manual` (PATCH), or `endpoint_failing` (every delivery failed for days). */
  disabled_reason?: 'manual' | 'endpoint_failing' | null;
  disabled_at?: string | null;
  /** Since when every attempt failed; null after a success. */
  failing_since?: string | null;
  /** After `rotateWebhookSecret`: until then deliveries are signed with the previous secret too. */
  previous_secret_expires_at?: string | null;
}

/** Any of these; only those given change. */
export interface UpdateWebhookInput {
  /** `https://` only, checked as on create. */
  url?: string;
  events?: WebhookEventType[];
  disabled?: boolean;
}

/**
 * An event as the events API returns it: exactly the payload its webhook deliveries carry
 * (`event_id`, `event`, `account`, `timestamp`, then the fields of its type), with `created_at`:
 * the deliveries' own for `transfer.*` and `agent.created`, else when the service recorded it.
 */
export interface CtsEvent {
  event_id: string;
  event: WebhookEventType;
  account: string;
  timestamp: string;
  created_at: string;
  [field: string]: unknown;
}

export interface EventList {
  /** Newest first. */
  events: CtsEvent[];
  /** Older events follow: ask again with `startingAfter` = the last `event_id`. */
  has_more: boolean;
}

export interface ListEventsQuery {
  /** 1..100, default 20. */
  limit?: number;
  /** The last `event_id` of the previous page. */
  startingAfter?: string;
  /** Only these types. */
  types?: readonly string[];
  createdAfter?: string | Date;
  createdBefore?: string | Date;
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
