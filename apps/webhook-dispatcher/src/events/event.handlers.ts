import { Injectable } from '@nestjs/common';
import {
  AgentCreated,
  AgentPolicyUpdated,
  AgentTransactionApproved,
  AgentTransactionExpired,
  AgentTransactionFailed,
  AgentTransactionPendingApproval,
  AgentTransactionRejected,
  AgentX402Paid,
  type Envelope,
  TransferConfirmed,
  TransferFailed,
  TransferInitiated,
} from '@cts/contracts';
import { OnEventBatch } from '@cts/messaging';
import { EventIngestion } from './event-ingestion';

/**
 * Every subscribable event type (WEBHOOK_EVENT_TYPES) from `transfer.events`, `agent.events`,
 * `approval.events`, taken in batches: a run of a partition's messages is ingested in one statement.
 */
@Injectable()
export class EventHandlers {
  constructor(private readonly ingestion: EventIngestion) {}

  @OnEventBatch(TransferInitiated, TransferConfirmed, TransferFailed)
  transferEvents(messages: Envelope[]): Promise<void> {
    return this.ingestion.ingest(messages);
  }

  @OnEventBatch(AgentCreated, AgentPolicyUpdated, AgentX402Paid)
  agentEvents(messages: Envelope[]): Promise<void> {
    return this.ingestion.ingest(messages);
  }

  @OnEventBatch(
    AgentTransactionPendingApproval,
    AgentTransactionApproved,
    AgentTransactionRejected,
    AgentTransactionExpired,
    AgentTransactionFailed,
  )
  approvalEvents(messages: Envelope[]): Promise<void> {
    return this.ingestion.ingest(messages);
  }
}
