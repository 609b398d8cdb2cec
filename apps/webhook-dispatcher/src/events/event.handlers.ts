import { Injectable } from '@nestjs/common';
import {
  AgentCreated,
  AgentPolicyUpdated,
  AgentTransactionApproved,
  AgentTransactionExpired,
  AgentTransactionFailed,
  AgentTransactionPendingApproval,
  AgentTransactionRejected,
  type Envelope,
  TransferConfirmed,
  TransferFailed,
  TransferInitiated,
} from '@cts/contracts';
import { OnEvent } from '@cts/messaging';
import { EventIngestion } from './event-ingestion';

/** Every subscribable event type (WEBHOOK_EVENT_TYPES) from `transfer.events`, `agent.events`, `approval.events`. */
@Injectable()
export class EventHandlers {
  constructor(private readonly ingestion: EventIngestion) {}

  @OnEvent(TransferInitiated)
  transferInitiated(message: Envelope): Promise<void> {
    return this.ingestion.ingest(message);
  }

  @OnEvent(TransferConfirmed)
  transferConfirmed(message: Envelope): Promise<void> {
    return this.ingestion.ingest(message);
  }

  @OnEvent(TransferFailed)
  transferFailed(message: Envelope): Promise<void> {
    return this.ingestion.ingest(message);
  }

  @OnEvent(AgentCreated)
  agentCreated(message: Envelope): Promise<void> {
    return this.ingestion.ingest(message);
  }

  @OnEvent(AgentPolicyUpdated)
  agentPolicyUpdated(message: Envelope): Promise<void> {
    return this.ingestion.ingest(message);
  }

  @OnEvent(AgentTransactionPendingApproval)
  pendingApproval(message: Envelope): Promise<void> {
    return this.ingestion.ingest(message);
  }

  @OnEvent(AgentTransactionApproved)
  approved(message: Envelope): Promise<void> {
    return this.ingestion.ingest(message);
  }

  @OnEvent(AgentTransactionRejected)
  rejected(message: Envelope): Promise<void> {
    return this.ingestion.ingest(message);
  }

  @OnEvent(AgentTransactionExpired)
  expired(message: Envelope): Promise<void> {
    return this.ingestion.ingest(message);
  }

  @OnEvent(AgentTransactionFailed)
  failed(message: Envelope): Promise<void> {
    return this.ingestion.ingest(message);
  }
}
