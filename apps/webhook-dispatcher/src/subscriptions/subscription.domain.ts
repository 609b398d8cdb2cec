import {
  WEBHOOK_EVENT_TYPES,
  type Environment,
  type WebhookDisabledReason,
  type WebhookEventType,
  type WebhookSubscription,
} from '@cts/contracts';

export interface SubscriptionState {
  id: string;
  accountId: string;
  environment: Environment;
  url: string;
  events: WebhookEventType[];
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: WebhookDisabledReason | null;
  failingSince: Date | null;
  previousSecretExpiresAt: Date | null;
}

/** What a new subscription starts with beside its id, account, URL and events. */
export const FRESH_STATE = {
  disabledAt: null,
  disabledReason: null,
  failingSince: null,
  previousSecretExpiresAt: null,
} as const;

const KNOWN: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

export type EventsCheck =
  { ok: true; events: WebhookEventType[] } | { ok: false; message: string; param: string };

/** At least one known event type; duplicates are dropped, the order given is kept. */
export function checkEventTypes(events: readonly string[]): EventsCheck {
  if (events.length === 0) {
    return { ok: false, message: 'events must name at least one event type', param: 'events' };
  }
  const index = events.findIndex((event) => !KNOWN.has(event));
  if (index >= 0) {
    return {
      ok: false,
      message: `events[${index}] "${events[index]}" is not an event type; known types: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
      param: `events.${index}`,
    };
  }
  return { ok: true, events: [...new Set(events)] as WebhookEventType[] };
}

export function toWebhookResource(subscription: SubscriptionState): WebhookSubscription {
  return {
    webhook_id: subscription.id,
    url: subscription.url,
    events: subscription.events,
    created_at: subscription.createdAt.toISOString(),
    disabled: subscription.disabledAt !== null,
    disabled_reason: subscription.disabledReason,
    disabled_at: subscription.disabledAt?.toISOString() ?? null,
    failing_since: subscription.failingSince?.toISOString() ?? null,
    previous_secret_expires_at: subscription.previousSecretExpiresAt?.toISOString() ?? null,
  };
}

/**
 * The endpoint a URL delivers to, its origin (`https://host[:port]`, host lowercased, default port
 * and a trailing dot dropped): what the per-endpoint limit on attempts in flight counts by.
 */
export function endpointOf(url: string): string {
  const parsed = new URL(url);
  parsed.hostname = parsed.hostname.replace(/\.$/, '');
  return parsed.origin;
}

/** Associated data of a sealed secret: it opens only as the secret of this subscription. */
export const secretSealingContext = (subscriptionId: string) => `webhook-secret:${subscriptionId}`;
