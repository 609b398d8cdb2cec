/**
 * Event types a webhook may subscribe to: spec §6.1, plus our documented additions (docs/events.md).
 * WARNING: subscribers store these strings — never rename one.
 */
export const WEBHOOK_EVENT_TYPES = [
  'transfer.initiated',
  'transfer.confirmed',
  'transfer.failed',
  'agent.transaction.pending_approval',
  'agent.transaction.approved',
  'agent.transaction.rejected',
  'agent.policy.updated',
  'agent.transaction.expired',
  'agent.transaction.failed',
  'agent.created',
  'agent.x402.paid',
  'webhook.endpoint.disabled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * `webhook.test`: sent by `POST /v1/webhooks/{id}/test` to that one endpoint, whatever its `events`;
 * it cannot be subscribed to, but it is listed by the events API like any event the account got.
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Every type the events API lists and filters on. */
export const EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
export type EventType = (typeof EVENT_TYPES)[number];
