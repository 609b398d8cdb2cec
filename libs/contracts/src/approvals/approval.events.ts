import { z } from 'zod';
import { defineEvent } from '../contract';
import { PartyRef, Timestamp } from '../parties';
import { EventTopics } from '../topics';

export const AgentTransactionStatus = z.enum([
  'pending_approval',
  'approved',
  'rejected',
  'expired',
  'failed',
]);
export type AgentTransactionStatus = z.infer<typeof AgentTransactionStatus>;

/** A held agent transaction as events carry it: never an amount (spec §2.5). */
export const AgentTransactionEventPayload = z.object({
  transaction_id: z.string(),
  status: AgentTransactionStatus,
  agent: PartyRef,
  owner: PartyRef,
  to: z.string(),
  asset: z.string(),
  requested_at: Timestamp,
  expires_at: Timestamp,
  decided_at: Timestamp.nullable(),
  transfer_id: z.string().nullable(),
  failure_reason: z.string().optional(),
});
export type AgentTransactionEventPayload = z.infer<typeof AgentTransactionEventPayload>;

const approvalEvent = (type: string) => defineEvent(EventTopics.approval, type, AgentTransactionEventPayload);

export const AgentTransactionPendingApproval = approvalEvent('agent.transaction.pending_approval');
export const AgentTransactionApproved = approvalEvent('agent.transaction.approved');
export const AgentTransactionRejected = approvalEvent('agent.transaction.rejected');
/** Our additions (docs/events.md): the window passed, or the approved transfer could not settle. */
export const AgentTransactionExpired = approvalEvent('agent.transaction.expired');
export const AgentTransactionFailed = approvalEvent('agent.transaction.failed');
