import { z } from 'zod';

const Timestamp = z.iso.datetime();

/**
 * Why a subscription gets no attempts: `manual` (PATCH `disabled: true`), or `endpoint_failing`
 * (every delivery failed for WEBHOOK_DISABLE_AFTER).
 */
export const WebhookDisabledReason = z.enum(['manual', 'endpoint_failing']);
export type WebhookDisabledReason = z.infer<typeof WebhookDisabledReason>;

/** Spec §2.7, as listed, plus its state: the signing secret is never part of it. */
export const WebhookSubscription = z.object({
  webhook_id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  created_at: Timestamp,
  // Added later: defaults keep a reply from a dispatcher that predates them readable.
  /** A disabled endpoint gets no attempts; its deliveries wait (24 h retry window) until it is enabled. */
  disabled: z.boolean().default(false),
  disabled_reason: WebhookDisabledReason.nullable().default(null),
  disabled_at: Timestamp.nullable().default(null),
  /** Since when every attempt to it failed (null after a success): 5 days of that disable it. */
  failing_since: Timestamp.nullable().default(null),
  /** Set after a rotation: until then deliveries are signed with the previous secret too. */
  previous_secret_expires_at: Timestamp.nullable().default(null),
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

/** The create response: the only place the secret (`whsec_` + base64 of 32 bytes) is ever shown. */
export const WebhookSubscriptionWithSecret = WebhookSubscription.extend({ secret: z.string() });
export type WebhookSubscriptionWithSecret = z.infer<typeof WebhookSubscriptionWithSecret>;

/**
 * What webhook-dispatcher replies to a create: the secret encrypted (`encryptMemoFor`) to the
 * requester's one-time `recipient_key`, so neither the reply topic nor the stored reply holds it.
 */
export const CreatedWebhook = WebhookSubscription.extend({ encrypted_secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const WebhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/**
 * Why an attempt got no HTTP answer. `destination_refused`: the host resolved to an address the
 * SSRF rules refuse (checked on every attempt), so nothing was sent.
 */
export const WebhookAttemptError = z.enum([
  'timeout',
  'dns_error',
  'connection_refused',
  'connection_error',
  'tls_error',
  'destination_refused',
]);
export type WebhookAttemptError = z.infer<typeof WebhookAttemptError>;

/** Why a delivery stopped for good: the endpoint answered `410 Gone`, or the 24 h of retries ran out. */
export const WebhookFailureReason = z.enum(['endpoint_gone', 'retries_exhausted']);
export type WebhookFailureReason = z.infer<typeof WebhookFailureReason>;

/** One HTTP attempt of a delivery. The response body is kept (truncated) but never returned: it could hold secrets. */
export const WebhookDeliveryAttempt = z.object({
  attempt_number: z.number().int().positive(),
  attempted_at: Timestamp,
  duration_ms: z.number().int().nonnegative(),
  /** The receiver's HTTP status; null when no answer came (see `error`). */
  response_status_code: z.number().int().nullable(),
  error: WebhookAttemptError.nullable(),
});
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

/** One entry of a subscription's delivery log (spec §2.7: status codes and retry counts). */
export const WebhookDelivery = z.object({
  delivery_id: z.string(),
  webhook_id: z.string(),
  event_id: z.string(),
  event: z.string(),
  status: WebhookDeliveryStatus,
  /** Attempts made so far (the first one included). */
  attempt_count: z.number().int().nonnegative(),
  /** Attempts after the first: `max(attempt_count - 1, 0)`. */
  retry_count: z.number().int().nonnegative(),
  /** HTTP status of the last attempt's response; null before the first answer (or on timeout, refused connection, …). */
  response_status_code: z.number().int().nullable(),
  last_attempt_at: Timestamp.nullable(),
  /** When the next attempt is due; null once the delivery succeeded or failed. */
  next_attempt_at: Timestamp.nullable(),
  created_at: Timestamp,
  // Added later: defaults keep a reply from a dispatcher that predates them readable.
  /** Set once `status` is `failed`. */
  failure_reason: WebhookFailureReason.nullable().default(null),
  /** Every attempt so far, oldest first. */
  attempts: z.array(WebhookDeliveryAttempt).default([]),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/**
 * One event as the events API returns it: exactly the payload its webhook deliveries carry
 * (`event_id`, `event`, `account`, `timestamp`, then the fields of its type, docs/events.md), with
 * `created_at`: the deliveries' own if they have one (a transfer's, an agent's), else when the
 * service recorded it. The list is ordered and filtered by it.
 */
export const EventResource = z.looseObject({
  event_id: z.string(),
  event: z.string(),
  account: z.string(),
  timestamp: Timestamp,
  created_at: Timestamp,
});
export type EventResource = z.infer<typeof EventResource>;
