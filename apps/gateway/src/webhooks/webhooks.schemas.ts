import {
  NO_CONTROL_CHARACTERS,
  WEBHOOK_EVENT_TYPES,
  WebhookDelivery,
  WebhookSubscription,
} from '@cts/contracts';
import { z } from 'zod';
import { IdString, QueryInteger } from '../http/query.schemas';

export const WebhookSchema = WebhookSubscription.meta({
  id: 'Webhook',
  description: 'A webhook subscription (spec §2.7); its secret is never shown again after creation',
});

export const WebhookWithSecretSchema = WebhookSubscription.extend({
  secret: z
    .string()
    .describe(
      'Signing secret (`whsec_` + base64 of 32 bytes), shown once. `X-Service-Signature` is the hex HMAC-SHA256 of the raw body keyed with this string; `webhook-signature` follows Standard Webhooks',
    ),
}).meta({ id: 'WebhookWithSecret' });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecretSchema>;

export const WebhookListSchema = z.object({ webhooks: z.array(WebhookSchema) }).meta({ id: 'WebhookList' });

export const WebhookDeliverySchema = WebhookDelivery.meta({
  id: 'WebhookDelivery',
  description:
    'One event sent to one subscription, with its attempts so far (spec §2.7: status codes and retry counts). Response bodies are kept truncated but never returned: they could hold secrets',
});

export const WebhookDeliveryListSchema = z
  .object({
    deliveries: z.array(WebhookDeliverySchema),
    limit: z.number().int(),
    offset: z.number().int(),
    has_more: z.boolean().describe('More deliveries follow: ask again with `offset` + `limit`'),
  })
  .meta({ id: 'WebhookDeliveryList' });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;

const HTTPS_ONLY = 'must be an absolute https:// URL';
// A JSON Schema pattern has no flags, hence the letter classes: URL schemes are case-insensitive.
const HTTPS_PREFIX = /^[Hh][Tt][Tt][Pp][Ss]:\/\//;

/**
 * A webhook endpoint. The https:// rule is also a pattern, so the OpenAPI document states it (zod
 * documents `.regex()` in place of the URL format, hence a refinement with the pattern in its meta).
 * Each check names its own error: one given to `z.url` would also answer for the length.
 */
const WebhookUrl = z
  .url({ protocol: /^https$/, error: HTTPS_ONLY })
  .max(2048, { error: 'must be at most 2048 characters' })
  .refine((url) => HTTPS_PREFIX.test(url), { error: HTTPS_ONLY })
  // The URL parser takes a NUL in the path, query or fragment, which PostgreSQL cannot store.
  .refine((url) => NO_CONTROL_CHARACTERS.test(url), { error: 'must not contain control characters' })
  .meta({ pattern: HTTPS_PREFIX.source });

export const CreateWebhookBody = z
  .object({
    url: WebhookUrl.describe(
      'HTTPS endpoint receiving POST deliveries; loopback, private, link-local and metadata addresses are refused',
    ),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1)
      .max(100)
      .describe('Event types to receive (spec §6.1)'),
  })
  .strict()
  .meta({ id: 'CreateWebhookRequest' });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const ListDeliveriesQuery = z
  .object({ limit: QueryInteger(1, 100, 20), offset: QueryInteger(0, Number.MAX_SAFE_INTEGER, 0) })
  .strict();
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

export const WebhookIdParam = IdString();
export const EventIdParam = IdString();

export const UpdateWebhookBody = z
  .object({
    url: WebhookUrl.optional().describe('A new HTTPS endpoint, checked as on create'),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1)
      .max(100)
      .optional()
      .describe('The event types to receive from now on'),
    disabled: z
      .boolean()
      .optional()
      .describe(
        'true: no attempts (deliveries wait); false: enabled again, waiting deliveries still within their 24 h retry window resume',
      ),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'give at least one of url, events, disabled' })
  .meta({ id: 'UpdateWebhookRequest' });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;
