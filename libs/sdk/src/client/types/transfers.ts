export type TransferStatus = 'pending' | 'confirmed' | 'failed';

/** Spec §2.1. Never carries a plaintext amount; `encrypted_amount` opens with `decryptAmount`. */
export interface Transfer {
  transfer_id: string;
  status: TransferStatus;
  /** Returned by get and list only. */
  from?: string;
  to: string;
  confidential: boolean;
  /** `null` while nothing has been submitted on-chain yet. */
  chain_signature: string | null;
  created_at: string;
  /** Returned by get and list only. */
  confirmed_at?: string | null;
  /** Base64, under the reading account's key: open with `decryptAmount`. */
  encrypted_amount?: string;
  /** Open with `decryptMemo`. */
  encrypted_memo?: string | null;
  direction?: 'sent' | 'received';
  failure_reason?: string | null;
  asset: string;
}

export interface CreateTransferInput {
  /** Recipient `@handle`, verified domain or raw on-chain address. */
  to: string;
  /** Decimal string, e.g. `'12.5'`. */
  amount: string;
  /** Default `USDC`. */
  asset?: string;
  /** Default `true`. */
  confidential?: boolean;
  memo?: string;
}

/** What an agent gets (HTTP 202) when the amount is above its human-in-the-loop threshold. */
export interface HeldAgentTransaction {
  transaction_id: string;
  status: 'pending_approval';
  agent: string;
  to: string;
  asset?: string;
  requested_at: string;
  expires_at: string;
}

export type CreateTransferResult =
  | { kind: 'transfer'; httpStatus: number; transfer: Transfer }
  | { kind: 'pending_approval'; httpStatus: number; transaction: HeldAgentTransaction };

export interface ListTransfersQuery {
  /** 1..100, default 20. */
  limit?: number;
  offset?: number;
  status?: TransferStatus;
  /** Only transfers after this time (ISO 8601 string or Date). */
  from?: string | Date;
  /** Only transfers before this time (ISO 8601 string or Date). */
  to?: string | Date;
}

export interface TransferList {
  transfers: Transfer[];
  limit: number;
  offset: number;
  has_more: boolean;
}
