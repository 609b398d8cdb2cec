import { z } from 'zod';

/**
 * Events the dispatcher itself raises about an account's webhooks. They reach no Kafka topic: the
 * dispatcher stores them with the deliveries they cause, in one transaction, and they concern one
 * account only (`account_id`, whose handle is `account`).
 */
const Timestamp = z.iso.datetime();

export const EndpointDisabledData = z.object({
  account_id: z.string(),
  account: z.string(),
  webhook_id: z.string(),
  url: z.string(),
  reason: z.literal('endpoint_failing'),
  failing_since: Timestamp,
  disabled_at: Timestamp,
});
export type EndpointDisabledData = z.infer<typeof EndpointDisabledData>;

export const TestEventData = z.object({
  account_id: z.string(),
  account: z.string(),
  webhook_id: z.string(),
});
export type TestEventData = z.infer<typeof TestEventData>;

export type InternalEvent =
  | { type: 'webhook.endpoint.disabled'; data: EndpointDisabledData }
  | { type: 'webhook.test'; data: TestEventData };

/** The payload fields after `event_id`, `event`, `account`, `timestamp`: everything but the account. */
export function internalEventFields(event: InternalEvent): Record<string, unknown> {
  const { account_id: _id, account: _handle, ...fields } = event.data;
  return fields;
}
