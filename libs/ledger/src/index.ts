export * from './ledger.port';
export {
  AccountNotFoundError,
  ConfidentialTransfersUnavailableError,
  InsufficientFundsOnchainError,
  LedgerError,
  TransactionFailedError,
  isLedgerError,
  type LedgerErrorCode,
  type UnavailabilityReason,
} from './ledger.errors';
export { elgamalPubkeyOf, ownerAddressOf } from './keys/account-keys';
export { SolanaRpcLedger, type SolanaRpcLedgerConfig } from './solana-rpc/solana-rpc-ledger';
export { type LedgerRpc, type LedgerRpcApi, type LedgerTimeouts } from './solana-rpc/ledger-rpc';
export { MAX_CONFIDENTIAL_AMOUNT } from './solana-rpc/ledger-guards';
export {
  createProofPool,
  type JobPreparation,
  type ProofPool,
  type ProofPoolOptions,
  type ProofPoolStats,
  type ProofPoolEngine,
} from './proof-pool/proof-pool';
export {
  PROOF_KINDS,
  type ProofEngine,
  type ProofEngineName,
  type ProofKind,
} from './proof-engine/proof-engine';
export {
  proofEngineChoiceFromEnv,
  proofEngineNamed,
  selectProofEngine,
  type ProofEngineChoice,
} from './proof-engine/select-proof-engine';
export { proofsOfEveryKind, sampleTransferInput } from './proof-engine/every-proof-kind';
export {
  createLocalLedgerRuntime,
  readLocalLedgerConfig,
  type LocalLedgerConfig,
  type LocalLedgerRuntimeOptions,
} from './local-runtime/create-local-runtime';
export { LocalLedgerRuntime, type LocalOperatorKeys } from './local-runtime/local-runtime';
export { type LocalLedgerGenesis, LOCAL_ASSETS } from './local-runtime/genesis';
export { handleJsonRpc } from './local-runtime/json-rpc.handler';
export { type JsonRpcRequest, type JsonRpcResponse } from './local-runtime/json-rpc.types';
export { createLocalLedgerTransport } from './local-runtime/rpc-transport';
export {
  startLocalLedgerServer,
  type LocalLedgerServer,
  type LocalLedgerServerOptions,
} from './local-runtime/http-server';
export { connectInProcess, connectOverHttp, type LocalLedgerConnection } from './local-ledger';
export { createKeepAliveLedgerRpc } from './solana-rpc/keep-alive-rpc';
export { measureRawLedgerRate, type RawLedgerRate, type RawLedgerRateOptions } from './bench/raw-ledger-rate';
