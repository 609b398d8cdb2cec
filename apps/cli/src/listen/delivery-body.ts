import { type CtsEvent } from '@cts/sdk';

/**
 * Deliveries of these types carry their own `created_at` (the transfer's, the agent's); the events
 * API adds `created_at` to the others, and a delivery of those has none (docs/events.md).
 */
const carriesCreatedAt = (type: string) => type.startsWith('transfer.') || type === 'agent.created';

/**
 * What a webhook delivery of `event` carries, byte for byte: the event as the events API returns it
 * (its fields in the deliveries' order), without the `created_at` the API added.
 */
export function deliveryBody(event: CtsEvent): string {
  if (carriesCreatedAt(event.event)) {
    return JSON.stringify(event);
  }
  const { created_at: _added, ...delivered } = event;
  return JSON.stringify(delivered);
}
