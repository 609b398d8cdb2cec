import { type FailedTransactionMetadata } from 'litesvm';

// LiteSVM exposes these as const enums that do not exist at runtime; the names (in enum order) are the
// ones Solana's JSON-RPC uses, so kit decodes our errors exactly as a real cluster's.
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const;

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const;

/** Solana's JSON shape of a TransactionError: a string, or a one-key object. */
export type TransactionErrorJson = string | Record<string, unknown>;

type LiteSvmTransactionError = ReturnType<FailedTransactionMetadata['err']>;
type LiteSvmInstructionError = ReturnType<Extract<LiteSvmTransactionError, { err: unknown }>['err']>;

function instructionErrorJson(error: LiteSvmInstructionError): unknown {
  if (typeof error === 'number') {
    return INSTRUCTION_ERRORS[error] ?? 'GenericError';
  }
  if ('code' in error) {
    return { Custom: error.code };
  }
  return { BorshIoError: error.msg };
}

export function transactionErrorJson(error: LiteSvmTransactionError): TransactionErrorJson {
  if (typeof error === 'number') {
    return TRANSACTION_ERRORS[error] ?? 'SanitizeFailure';
  }
  const name = error.constructor.name;
  if ('err' in error) {
    return { InstructionError: [error.index, instructionErrorJson(error.err())] };
  }
  if (name === 'TransactionErrorDuplicateInstruction' && 'index' in error) {
    return { DuplicateInstruction: error.index };
  }
  const accountIndex = 'accountIndex' in error ? error.accountIndex : 0;
  return name === 'TransactionErrorInsufficientFundsForRent'
    ? { InsufficientFundsForRent: { account_index: accountIndex } }
    : { ProgramExecutionTemporarilyRestricted: { account_index: accountIndex } };
}

export function describeTransactionError(error: TransactionErrorJson): string {
  if (typeof error === 'string') {
    return error;
  }
  const instruction = error.InstructionError;
  if (Array.isArray(instruction)) {
    const [index, cause] = instruction as [number, unknown];
    const detail =
      typeof cause === 'object' && cause !== null && 'Custom' in cause
        ? `custom program error: 0x${Number((cause as { Custom: number }).Custom).toString(16)}`
        : JSON.stringify(cause);
    return `Error processing Instruction ${index}: ${detail}`;
  }
  return JSON.stringify(error);
}
