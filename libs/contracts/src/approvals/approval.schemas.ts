import { z } from 'zod';
import { Timestamp } from '../parties';
import { AssetCode } from '../transfers/transfer.schemas';
import { AgentTransactionStatus, HeldX402Payment } from './approval.events';

/**
 * A held agent transaction as approve and reject return it (spec §4.3 "the updated transaction
 * state"). Never an amount. `transfer_id` is set once the approved transaction became a transfer;
 * `failure_reason` only when `status` is `failed`; `x402` (our addition): who an x402 payment pays
 * and for what, null for a transfer (see HeldX402Payment).
 */
export const AgentTransactionResource = z.object({
  transaction_id: z.string(),
  status: AgentTransactionStatus,
  agent: z.string(),
  to: z.string(),
  asset: AssetCode,
  requested_at: Timestamp,
  expires_at: Timestamp,
  decided_at: Timestamp.nullable(),
  transfer_id: z.string().nullable(),
  failure_reason: z.string().optional(),
  x402: HeldX402Payment.nullable().default(null),
});
export type AgentTransactionResource = z.infer<typeof AgentTransactionResource>;

/**
 * Spec §2.5, plus `asset`, `encrypted_amount` (ARCHITECTURE §6): the amount encrypted under the
 * owner's AE key, base64, which only the owner's `decryption_key` opens (SDK `decryptAmount`), and
 * `x402`: for a held x402 payment the payee and the resource the owner approves paying for (`to` is
 * only the resource's host), null for a transfer.
 */
export const PendingApprovalItem = z.object({
  transaction_id: z.string(),
  agent: z.string(),
  to: z.string(),
  asset: AssetCode,
  requested_at: Timestamp,
  expires_at: Timestamp,
  encrypted_amount: z.string(),
  x402: HeldX402Payment.nullable().default(null),
});
export type PendingApprovalItem = z.infer<typeof PendingApprovalItem>;

export const PendingApprovalList = z.object({ pending: z.array(PendingApprovalItem) });
export type PendingApprovalList = z.infer<typeof PendingApprovalList>;

/**
 * A held agent transaction as its owner and the agent itself read it (`GET /v1/agents/transactions/{id}`,
 * `GET /v1/agents/{account_id}/transactions`): the resource plus `encrypted_amount`, which only the
 * owner gets (an AE ciphertext under the owner's key; the agent's key could not open it anyway).
 */
export const AgentTransactionView = AgentTransactionResource.extend({
  encrypted_amount: z.string().optional(),
});
export type AgentTransactionView = z.infer<typeof AgentTransactionView>;

export const AgentTransactionPage = z.object({
  transactions: z.array(AgentTransactionView),
  has_more: z.boolean(),
});
export type AgentTransactionPage = z.infer<typeof AgentTransactionPage>;
