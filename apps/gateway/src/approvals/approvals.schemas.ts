import { AgentTransactionResource, PendingApprovalItem } from '@cts/contracts';
import { z } from 'zod';

export const PendingApprovalSchema = PendingApprovalItem.meta({
  id: 'PendingApproval',
  description:
    'An agent transaction held for the owner’s decision (spec §2.5). No plaintext amount: `encrypted_amount` opens only with the owner’s decryption_key (SDK decryptAmount).',
});

export const PendingApprovalListSchema = z
  .object({ pending: z.array(PendingApprovalSchema) })
  .meta({ id: 'PendingApprovalList' });

export const AgentTransactionSchema = AgentTransactionResource.meta({
  id: 'AgentTransaction',
  description:
    'A held agent transaction after the decision: `approved` (with `transfer_id` once the transfer exists), `rejected`, `expired`, or `failed` with `failure_reason` when the approved transfer could not settle. No amount.',
});

export const TransactionIdParam = z.string().min(1).max(64);
