import {
  AgentCreated,
  AgentPolicyUpdated,
  AgentTransactionEventPayload,
  type PayloadOf,
  TransferEventPayload,
  type WebhookEventType,
} from '@cts/contracts';

/** A consumed domain event, by type, with its contract payload (stored as is for 30 days). */
export type SourceEvent =
  | { type: 'transfer.initiated' | 'transfer.confirmed' | 'transfer.failed'; data: TransferEventPayload }
  | { type: 'agent.created'; data: PayloadOf<typeof AgentCreated> }
  | { type: 'agent.policy.updated'; data: PayloadOf<typeof AgentPolicyUpdated> }
  | {
      type:
        | 'agent.transaction.pending_approval'
        | 'agent.transaction.approved'
        | 'agent.transaction.rejected'
        | 'agent.transaction.expired'
        | 'agent.transaction.failed';
      data: AgentTransactionEventPayload;
    };

const SCHEMAS = {
  'transfer.initiated': TransferEventPayload,
  'transfer.confirmed': TransferEventPayload,
  'transfer.failed': TransferEventPayload,
  'agent.created': AgentCreated.payload,
  'agent.policy.updated': AgentPolicyUpdated.payload,
  'agent.transaction.pending_approval': AgentTransactionEventPayload,
  'agent.transaction.approved': AgentTransactionEventPayload,
  'agent.transaction.rejected': AgentTransactionEventPayload,
  'agent.transaction.expired': AgentTransactionEventPayload,
  'agent.transaction.failed': AgentTransactionEventPayload,
} satisfies Record<WebhookEventType, unknown>;

/** Re-reads a stored event against its contract; null for a type or shape we do not know. */
export function parseSourceEvent(type: string, data: unknown): SourceEvent | null {
  if (!(type in SCHEMAS)) {
    return null;
  }
  const parsed = SCHEMAS[type as WebhookEventType].safeParse(data);
  return parsed.success ? ({ type, data: parsed.data } as SourceEvent) : null;
}
