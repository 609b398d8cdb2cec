import {
  WEBHOOK_TEST_EVENT,
  AgentCreated,
  AgentPolicyUpdated,
  AgentX402Paid,
  AgentTransactionEventPayload,
  type PayloadOf,
  TransferEventPayload,
  type WebhookEventType,
} from '@cts/contracts';
import { EndpointDisabledData, type InternalEvent, TestEventData } from './internal-event.domain';

/** A consumed domain event, by type, with its contract payload (stored as is for 30 days). */
export type SourceEvent =
  | { type: 'transfer.initiated' | 'transfer.confirmed' | 'transfer.failed'; data: TransferEventPayload }
  | { type: 'agent.created'; data: PayloadOf<typeof AgentCreated> }
  | { type: 'agent.policy.updated'; data: PayloadOf<typeof AgentPolicyUpdated> }
  | { type: 'agent.x402.paid'; data: PayloadOf<typeof AgentX402Paid> }
  | {
      type:
        | 'agent.transaction.pending_approval'
        | 'agent.transaction.approved'
        | 'agent.transaction.rejected'
        | 'agent.transaction.expired'
        | 'agent.transaction.failed';
      data: AgentTransactionEventPayload;
    }
  | InternalEvent;

const SCHEMAS = {
  'transfer.initiated': TransferEventPayload,
  'transfer.confirmed': TransferEventPayload,
  'transfer.failed': TransferEventPayload,
  'agent.created': AgentCreated.payload,
  'agent.policy.updated': AgentPolicyUpdated.payload,
  'agent.x402.paid': AgentX402Paid.payload,
  'agent.transaction.pending_approval': AgentTransactionEventPayload,
  'agent.transaction.approved': AgentTransactionEventPayload,
  'agent.transaction.rejected': AgentTransactionEventPayload,
  'agent.transaction.expired': AgentTransactionEventPayload,
  'agent.transaction.failed': AgentTransactionEventPayload,
  'webhook.endpoint.disabled': EndpointDisabledData,
  [WEBHOOK_TEST_EVENT]: TestEventData,
} satisfies Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, unknown>;

/** Re-reads a stored event against its contract; null for a type or shape we do not know. */
export function parseSourceEvent(type: string, data: unknown): SourceEvent | null {
  if (!(type in SCHEMAS)) {
    return null;
  }
  const parsed = SCHEMAS[type as keyof typeof SCHEMAS].safeParse(data);
  return parsed.success ? ({ type, data: parsed.data } as SourceEvent) : null;
}
