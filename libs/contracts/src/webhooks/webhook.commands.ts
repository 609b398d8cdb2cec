import { z } from 'zod';
import { defineCommand } from '../contract';
import { Environment } from '../environment';
import { CommandTopics } from '../topics';
import { CreatedWebhook, WebhookDelivery, WebhookSubscription } from './webhook.schemas';

/** Every webhook command is scoped to the calling key's account and environment. */
const Scope = z.object({ account_id: z.string(), environment: Environment });

const Base64 = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/);

/**
 * `url` and `events` are only bounded here: webhook-dispatcher owns the rules (https only, no
 * private targets, known event types) and answers `invalid_request` with `param`, so a bad value is
 * a domain error rather than an invalid (dead-lettered) message. `recipient_key` is a one-time
 * ElGamal public key of the requesting gateway: the new secret travels back encrypted to it.
 */
export const CreateWebhook = defineCommand(
  CommandTopics.webhookCreate,
  Scope.extend({
    url: z.string().max(2048),
    events: z.array(z.string().max(100)).max(100),
    recipient_key: Base64,
  }),
  CreatedWebhook,
);

export const ListWebhooks = defineCommand(
  CommandTopics.webhookList,
  Scope,
  z.object({ webhooks: z.array(WebhookSubscription) }),
);

export const DeleteWebhook = defineCommand(
  CommandTopics.webhookDelete,
  Scope.extend({ webhook_id: z.string() }),
  z.object({ webhook_id: z.string(), deleted_at: z.iso.datetime() }),
);

/** Newest first, a page of `limit` after skipping `offset`; `has_more` when a later page exists. */
export const ListWebhookDeliveries = defineCommand(
  CommandTopics.webhookDeliveries,
  Scope.extend({
    webhook_id: z.string(),
    limit: z.number().int().min(1).max(100).default(20),
    offset: z.number().int().min(0).default(0),
  }),
  z.object({ deliveries: z.array(WebhookDelivery), has_more: z.boolean().default(false) }),
);

/** A new delivery of a stored event (kept 30 days) to one subscription. */
export const ReplayWebhookEvent = defineCommand(
  CommandTopics.webhookReplay,
  Scope.extend({ webhook_id: z.string(), event_id: z.string() }),
  WebhookDelivery,
);
