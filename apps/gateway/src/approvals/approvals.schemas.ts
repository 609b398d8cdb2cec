import {
  AgentTransactionResource,
  AgentTransactionStatus,
  AgentTransactionView,
  PendingApprovalItem,
} from '@cts/contracts';
import { z } from 'zod';
import { IdString, QueryInteger } from '../http/query.schemas';

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

export const TransactionIdParam = IdString();

export const AgentTransactionViewSchema = AgentTransactionView.meta({
  id: 'AgentTransactionState',
  description:
    'A held agent transaction as its owner or the agent itself reads it. `status`: `pending_approval` (a pending transaction past its window reads `expired`), `approved` (with `transfer_id` once the transfer exists), `rejected`, `expired`, or `failed` with `failure_reason`. `encrypted_amount` only for the owner: it opens with the owner’s decryption_key (SDK decryptAmount). Never a plaintext amount.',
});

export const AgentTransactionPageSchema = z
  .object({ transactions: z.array(AgentTransactionViewSchema), has_more: z.boolean() })
  .meta({ id: 'AgentTransactionList' });

export const ListAgentTransactionsQuery = z
  .object({
    limit: QueryInteger(1, 100, 20),
    starting_after: IdString().optional().describe('The last transaction_id of the previous page'),
    status: AgentTransactionStatus.optional(),
  })
  .strict();
export type ListAgentTransactionsQuery = z.infer<typeof ListAgentTransactionsQuery>;
