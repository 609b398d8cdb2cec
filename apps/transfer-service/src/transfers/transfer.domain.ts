import {
  type AssetCode,
  type Environment,
  type TransactionParty,
  type TransferEventPayload,
  type TransferRecipient,
  type TransferResource,
  type TransferStatus,
} from '@cts/contracts';

export interface TransferRecord {
  id: string;
  environment: Environment;
  commandId: string;
  idempotencyKey: string | null;
  apiKeyId: string | null;
  sender: TransactionParty;
  recipient: TransferRecipient;
  to: string;
  asset: AssetCode;
  confidential: boolean;
  status: TransferStatus;
  sealedAmount: string;
  senderEncryptedAmount: string;
  recipientEncryptedAmount: string | null;
  senderEncryptedMemo: string | null;
  recipientEncryptedMemo: string | null;
  chainSignature: string | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  confirmedAt: Date | null;
}

/** The transfer as `reader` sees it: its own direction, its own ciphertexts, never an amount. */
/**
 * Whether `reader` sees the transfer as sent: a party sees its own side; an agent's owner (who holds
 * the agent's decryption key) sees its agent's side, the sender's when its agents are on both.
 */
function readsAsSender(transfer: TransferRecord, reader: string): boolean {
  if (transfer.sender.account_id === reader) {
    return true;
  }
  if (transfer.recipient.account_id === reader) {
    return false;
  }
  return transfer.sender.owner?.account_id === reader;
}

export function toTransferResource(transfer: TransferRecord, reader: string): TransferResource {
  const sent = readsAsSender(transfer, reader);
  return {
    transfer_id: transfer.id,
    status: transfer.status,
    direction: sent ? 'sent' : 'received',
    from: transfer.sender.handle,
    to: transfer.to,
    asset: transfer.asset,
    confidential: transfer.confidential,
    chain_signature: transfer.chainSignature,
    encrypted_amount: (sent ? transfer.senderEncryptedAmount : transfer.recipientEncryptedAmount) ?? '',
    encrypted_memo: sent ? transfer.senderEncryptedMemo : transfer.recipientEncryptedMemo,
    failure_reason: transfer.failureReason,
    created_at: transfer.createdAt.toISOString(),
    confirmed_at: transfer.confirmedAt?.toISOString() ?? null,
  };
}

/**
 * The event payload. WARNING: `publicAmount` is passed only for `confidential: false` transfers,
 * whose amount is public on the ledger anyway.
 */
export function toTransferEvent(transfer: TransferRecord, publicAmount?: string): TransferEventPayload {
  return {
    transfer_id: transfer.id,
    status: transfer.status,
    sender: transfer.sender,
    recipient: transfer.recipient,
    to: transfer.to,
    asset: transfer.asset,
    confidential: transfer.confidential,
    ...(transfer.confidential || publicAmount === undefined ? {} : { amount: publicAmount }),
    chain_signature: transfer.chainSignature,
    ...(transfer.failureReason ? { failure_reason: transfer.failureReason } : {}),
    created_at: transfer.createdAt.toISOString(),
    confirmed_at: transfer.confirmedAt?.toISOString() ?? null,
  };
}

const KYC_CLEARED = new Set(['verified', 'enhanced']);

/** ARCHITECTURE §6: transfers and balances need `verified` or `enhanced`. */
export function kycAllowsMoney(kycStatus: string): boolean {
  return KYC_CLEARED.has(kycStatus);
}

export type SettlementOutcome =
  { status: 'confirmed'; signature: string } | { status: 'failed'; reason: string; signature: string | null };

/**
 * How a pending transfer ends, decided under the sender's lock (so no settlement of it is in flight),
 * from what the ledger says about its recorded signature. No signature: nothing was ever sent.
 */
export function reconcileOutcome(
  signature: string | null,
  ledgerSays: 'confirmed' | 'failed' | 'unknown',
  ageMs: number,
  giveUpAfterMs: number,
): SettlementOutcome | 'wait' {
  if (signature === null) {
    return { status: 'failed', reason: 'settlement_interrupted', signature: null };
  }
  if (ledgerSays === 'confirmed') {
    return { status: 'confirmed', signature };
  }
  if (ledgerSays === 'failed') {
    return { status: 'failed', reason: 'ledger_rejected', signature };
  }
  // Unknown: a signed transaction can still land until its blockhash expires; after that it never will.
  return ageMs >= giveUpAfterMs
    ? { status: 'failed', reason: 'settlement_interrupted', signature: null }
    : 'wait';
}
