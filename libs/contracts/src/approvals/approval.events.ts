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

/**
 * A held x402 payment's terms the owner decides on (session 23): the policy gate matched the
 * resource's host (`to`), but the money goes to `pay_to` (the quote's `payTo`, a ledger address the
 * agent's 402 answer named) for exactly `resource` (the URL the quote prices). Never the amount: the
 * owner reads it from `encrypted_amount` as for any held transaction.
 */
export const HeldX402Payment = z
  .object({ pay_to: z.string(), resource: z.string() })
  .describe(
    'An x402 payment: `pay_to` is the payee address it pays, `resource` the URL it pays for (`to` is only that URL’s host). Null for a transfer.',
  );
export type HeldX402Payment = z.infer<typeof HeldX402Payment>;

/**
 * A held agent transaction as events carry it: never an amount (spec §2.5). `x402`: an x402
 * payment's payee and resource, null for a transfer; absent from events raised before it existed.
 */
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
  x402: HeldX402Payment.nullish(),
});
export type AgentTransactionEventPayload = z.infer<typeof AgentTransactionEventPayload>;

const approvalEvent = (type: string) => defineEvent(EventTopics.approval, type, AgentTransactionEventPayload);

export const AgentTransactionPendingApproval = approvalEvent('agent.transaction.pending_approval');
export const AgentTransactionApproved = approvalEvent('agent.transaction.approved');
export const AgentTransactionRejected = approvalEvent('agent.transaction.rejected');
/** Our additions (docs/events.md): the window passed, or the approved transfer could not settle. */
export const AgentTransactionExpired = approvalEvent('agent.transaction.expired');
export const AgentTransactionFailed = approvalEvent('agent.transaction.failed');
