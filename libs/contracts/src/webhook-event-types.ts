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
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
