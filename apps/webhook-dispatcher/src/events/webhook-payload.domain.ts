import { type AgentTransactionEventPayload, type PartyRef, type TransferEventPayload } from '@cts/contracts';
import { agentAudience, type TransferView, transferAudience } from './event-audience.domain';
import { type InternalEvent, internalEventFields } from './internal-event.domain';
import { type SourceEvent } from './source-event.domain';

export interface EventMeta {
  /** `evt_…`: the payload's `event_id` and the `webhook-id` header. */
  eventId: string;
  occurredAt: Date;
}

export interface Recipient {
  accountId: string;
  handle: string;
}

/** The webhook payload: a JSON object whose fields are listed in docs/events.md. */
export type WebhookPayload = Record<string, unknown>;

const isTransfer = (event: SourceEvent): event is Extract<SourceEvent, { data: TransferEventPayload }> =>
  event.type.startsWith('transfer.');

const isInternal = (event: SourceEvent): event is InternalEvent => event.type.startsWith('webhook.');

/** Every account the event concerns (ARCHITECTURE §6): whose subscriptions get a delivery. */
export function eventAudience(event: SourceEvent): Recipient[] {
  if (isInternal(event)) {
    return [{ accountId: event.data.account_id, handle: event.data.account }];
  }
  const members = isTransfer(event) ? transferAudience(event.data) : agentAudience(event.data);
  return members.map(({ accountId, handle }) => ({ accountId, handle }));
}

/**
 * A transfer as one party (or an agent's owner) sees it. WARNING: the amount appears only for a
 * `confidential: false` transfer; a confidential amount must never reach a webhook (spec §6.2),
 * even if a producer were to put one in the event by mistake.
 */
function transferFields(transfer: TransferEventPayload, view: TransferView): WebhookPayload {
  return {
    transfer_id: transfer.transfer_id,
    status: transfer.status,
    direction: view.direction,
    counterparty: view.counterparty,
    ...(view.agent === null ? {} : { agent: view.agent }),
    asset: transfer.asset,
    confidential: transfer.confidential,
    ...(transfer.confidential === false && transfer.amount !== undefined ? { amount: transfer.amount } : {}),
    chain_signature: transfer.chain_signature,
    confirmed_at: transfer.confirmed_at,
    ...(transfer.failure_reason === undefined ? {} : { failure_reason: transfer.failure_reason }),
  };
}

const agentFields = (agent: PartyRef, owner: PartyRef) => ({
  agent: agent.handle,
  agent_account_id: agent.account_id,
  owner: owner.handle,
});

/**
 * A held agent transaction: never an amount (spec §2.5; the event carries none). `x402`: an x402
 * payment's payee and resource, for the owner deciding on it; null for a transfer (and for events
 * raised before approval-service sent it).
 */
function approvalFields(tx: AgentTransactionEventPayload): WebhookPayload {
  return {
    transaction_id: tx.transaction_id,
    status: tx.status,
    ...agentFields(tx.agent, tx.owner),
    to: tx.to,
    asset: tx.asset,
    requested_at: tx.requested_at,
    expires_at: tx.expires_at,
    decided_at: tx.decided_at,
    transfer_id: tx.transfer_id,
    ...(tx.failure_reason === undefined ? {} : { failure_reason: tx.failure_reason }),
    x402: tx.x402 ?? null,
  };
}

function eventFields(
  event: SourceEvent,
  accountId: string,
): { handle: string; fields: WebhookPayload } | null {
  if (isInternal(event)) {
    return event.data.account_id === accountId
      ? { handle: event.data.account, fields: internalEventFields(event) }
      : null;
  }
  if (isTransfer(event)) {
    const member = transferAudience(event.data).find((m) => m.accountId === accountId);
    return member ? { handle: member.handle, fields: transferFields(event.data, member.view) } : null;
  }
  const member = agentAudience(event.data).find((m) => m.accountId === accountId);
  if (!member) {
    return null;
  }
  switch (event.type) {
    case 'agent.created': {
      const { agent, owner, spend_policy_id } = event.data;
      return { handle: member.handle, fields: { ...agentFields(agent, owner), spend_policy_id } };
    }
    case 'agent.policy.updated': {
      const { agent, owner, policy_id, changed_fields, updated_at } = event.data;
      return {
        handle: member.handle,
        fields: { ...agentFields(agent, owner), policy_id, changed_fields, updated_at },
      };
    }
    case 'agent.x402.paid': {
      // Public by nature: an x402 payment is a public transfer, its amount is on the chain.
      const { agent, owner, ...payment } = event.data;
      return { handle: member.handle, fields: { ...agentFields(agent, owner), ...payment } };
    }
    default:
      return { handle: member.handle, fields: approvalFields(event.data) };
  }
}

/**
 * When what the event is about was created: the transfer for `transfer.*`, the agent for
 * `agent.created`; null for the other types. Their deliveries carry it as `created_at`, so it is
 * also the event's `created_at` in the events API and the time the event is listed by
 * (docs/decisions.md, "Events API").
 */
export function subjectCreatedAt(event: SourceEvent): string | null {
  if (isTransfer(event)) {
    return event.data.created_at;
  }
  return event.type === 'agent.created' ? event.data.created_at : null;
}

/**
 * The payload one receiving account gets: `event_id`, `event`, `account` (its handle), `timestamp`,
 * `created_at` for the types that have one (`subjectCreatedAt`), then the event's fields from its
 * point of view. Null when the event does not concern it. `created_at` comes fifth because the
 * events API's contract schema puts it there: an event then serializes as its deliveries' body.
 */
export function buildWebhookPayload(
  event: SourceEvent,
  meta: EventMeta,
  accountId: string,
): WebhookPayload | null {
  const found = eventFields(event, accountId);
  if (!found) {
    return null;
  }
  const createdAt = subjectCreatedAt(event);
  return {
    event_id: meta.eventId,
    event: event.type,
    account: found.handle,
    timestamp: meta.occurredAt.toISOString(),
    ...(createdAt === null ? {} : { created_at: createdAt }),
    ...found.fields,
  };
}
