import { z } from 'zod';
import { defineCommand } from '../contract';
import { Environment } from '../environment';
import { CommandTopics } from '../topics';
import { CreatedWebhook, EventResource, WebhookDelivery, WebhookSubscription } from './webhook.schemas';

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

export const GetWebhook = defineCommand(
  CommandTopics.webhookGet,
  Scope.extend({ webhook_id: z.string() }),
  WebhookSubscription,
);

/** Any of `url` (checked as on create), `events`, `disabled`; enabling resumes waiting deliveries. */
export const UpdateWebhook = defineCommand(
  CommandTopics.webhookUpdate,
  Scope.extend({
    webhook_id: z.string(),
    url: z.string().max(2048).optional(),
    events: z.array(z.string().max(100)).max(100).optional(),
    disabled: z.boolean().optional(),
  }),
  WebhookSubscription,
);

/**
 * A new secret, returned encrypted to the requester's one-time `recipient_key` as on create; the
 * previous one keeps signing (beside it) for 24 hours.
 */
export const RotateWebhookSecret = defineCommand(
  CommandTopics.webhookRotateSecret,
  Scope.extend({ webhook_id: z.string(), recipient_key: Base64 }),
  CreatedWebhook,
);

/** A `webhook.test` event delivered to this one endpoint now (also when disabled or not subscribed). */
export const SendTestWebhook = defineCommand(
  CommandTopics.webhookSendTest,
  Scope.extend({ webhook_id: z.string(), account_handle: z.string().max(200) }),
  WebhookDelivery,
);

/**
 * The account's events in one environment (kept 30 days), newest first. `starting_after`: the last
 * event id of the previous page. `types` empty: every type.
 */
export const ListEvents = defineCommand(
  CommandTopics.eventList,
  Scope.extend({
    limit: z.number().int().min(1).max(100).default(20),
    starting_after: z.string().max(64).optional(),
    types: z.array(z.string().max(100)).max(50).default([]),
    created_after: z.iso.datetime().optional(),
    created_before: z.iso.datetime().optional(),
  }),
  z.object({ events: z.array(EventResource), has_more: z.boolean() }),
);

export const GetEvent = defineCommand(
  CommandTopics.eventGet,
  Scope.extend({ event_id: z.string().max(64) }),
  EventResource,
);
