/** Stable codes: callers branch on these, never on messages. Do not rename without a migration plan. */
export type LedgerErrorCode =
  | 'insufficient_funds_onchain'
  | 'account_not_found'
  | 'account_not_confidential'
  | 'account_key_mismatch'
  | 'confidential_transfers_unavailable'
  | 'unknown_asset'
  | 'asset_misconfigured'
  | 'invalid_amount'
  | 'invalid_key_material'
  | 'funding_not_allowed'
  | 'fee_payer_unfunded'
  | 'pending_balance_race'
  | 'transaction_failed'
  | 'transaction_not_confirmed'
  | 'ledger_unavailable'
  | 'proof_pool_closed'
  | 'proof_worker_failed'
  | 'proof_engine_unavailable';

export class LedgerError extends Error {
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LedgerError';
  }
}

export class InsufficientFundsOnchainError extends LedgerError {
  constructor(message = 'the source confidential available balance is lower than the amount') {
    super('insufficient_funds_onchain', message);
    this.name = 'InsufficientFundsOnchainError';
  }
}

export class AccountNotFoundError extends LedgerError {
  constructor(message: string) {
    super('account_not_found', message);
    this.name = 'AccountNotFoundError';
  }
}

export type UnavailabilityReason = 'rpc_unreachable' | 'proof_program_disabled' | 'mint_not_confidential';

export class ConfidentialTransfersUnavailableError extends LedgerError {
  constructor(
    readonly reason: UnavailabilityReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('confidential_transfers_unavailable', message, options);
    this.name = 'ConfidentialTransfersUnavailableError';
  }
}

export class TransactionFailedError extends LedgerError {
  constructor(
    message: string,
    readonly logs: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super('transaction_failed', message, options);
    this.name = 'TransactionFailedError';
  }
}

export function isLedgerError(value: unknown): value is LedgerError {
  return value instanceof LedgerError;
}

/** Errors cross worker threads as plain data; this rebuilds the typed class on the other side. */
export interface SerializedLedgerError {
  code: LedgerErrorCode;
  message: string;
}

export function serializeError(error: unknown): SerializedLedgerError {
  if (error instanceof LedgerError) {
    return { code: error.code, message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'proof_worker_failed', message };
}

export function deserializeError(error: SerializedLedgerError): LedgerError {
  if (error.code === 'insufficient_funds_onchain') {
    return new InsufficientFundsOnchainError(error.message);
  }
  if (error.code === 'account_not_found') {
    return new AccountNotFoundError(error.message);
  }
  return new LedgerError(error.code, error.message);
}
