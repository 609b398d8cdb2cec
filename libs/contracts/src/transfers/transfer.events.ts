import { z } from 'zod';
import { defineEvent } from '../contract';
import { PartyRef, Timestamp, TransactionParty } from '../parties';
import { EventTopics } from '../topics';

export const TransferStatus = z.enum(['pending', 'confirmed', 'failed']);
export type TransferStatus = z.infer<typeof TransferStatus>;

/** The recipient side: an account of ours, or an outside address (then `account_id` and `handle` are null). */
export const TransferRecipient = z.object({
  account_id: z.string().nullable(),
  handle: z.string().nullable(),
  address: z.string(),
  owner: PartyRef.nullable(),
});
export type TransferRecipient = z.infer<typeof TransferRecipient>;

/**
 * Every `transfer.*` event carries the whole transfer as it stands. WARNING: `amount` is present only
 * for `confidential: false` transfers — a confidential amount never reaches a topic.
 */
export const TransferEventPayload = z.object({
  transfer_id: z.string(),
  status: TransferStatus,
  sender: TransactionParty,
  recipient: TransferRecipient,
  /** The recipient as the sender wrote it (`@handle`, domain or address). */
  to: z.string(),
  asset: z.string(),
  confidential: z.boolean(),
  amount: z.string().optional(),
  chain_signature: z.string().nullable(),
  /** `transfer.failed`: why (`insufficient_balance`, `ledger_rejected`, ...). */
  failure_reason: z.string().optional(),
  created_at: Timestamp,
  confirmed_at: Timestamp.nullable(),
});
export type TransferEventPayload = z.infer<typeof TransferEventPayload>;

export const TransferInitiated = defineEvent(
  EventTopics.transfer,
  'transfer.initiated',
  TransferEventPayload,
);
export const TransferConfirmed = defineEvent(
  EventTopics.transfer,
  'transfer.confirmed',
  TransferEventPayload,
);
export const TransferFailed = defineEvent(EventTopics.transfer, 'transfer.failed', TransferEventPayload);
