import { z } from 'zod';

const Timestamp = z.iso.datetime();

/** Spec §2.7, as listed: the signing secret is never part of it. */
export const WebhookSubscription = z.object({
  webhook_id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  created_at: Timestamp,
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
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
