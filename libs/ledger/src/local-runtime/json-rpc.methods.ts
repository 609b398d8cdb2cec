import { type EncodedAccount, getBase58Decoder } from '@solana/kit';
import { describeTransactionError } from './transaction-error-json';
import { type ExecutionReport, type LocalLedgerRuntime } from './local-runtime';
import {
  addressParam,
  configParam,
  integerParam,
  paramsArray,
  stringParam,
  wireTransactionParam,
} from './json-rpc.params';
import { JsonRpcError, RPC_ERRORS } from './json-rpc.types';

type Method = (runtime: LocalLedgerRuntime, params: unknown[]) => unknown;

const API_VERSION = '2.3.0';
const U64_MAX = 18_446_744_073_709_551_615n;
const MAX_ACCOUNTS_PER_CALL = 100;

function withContext(runtime: LocalLedgerRuntime, value: unknown) {
  return { context: { apiVersion: API_VERSION, slot: runtime.block().slot }, value };
}

function encodeAccount(account: EncodedAccount | null, config: Record<string, unknown>) {
  if (account === null) {
    return null;
  }
  const encoding = config.encoding ?? 'base64';
  if (encoding !== 'base64' && encoding !== 'base58') {
    throw new JsonRpcError(
      RPC_ERRORS.invalidParams,
      `Invalid param: unsupported encoding ${JSON.stringify(encoding)}`,
    );
  }
  const slice = configParam(config.dataSlice);
  const offset = slice.offset === undefined ? 0 : Number(slice.offset);
  const length = slice.length === undefined ? account.data.length : Number(slice.length);
  const data = Buffer.from(account.data.subarray(offset, offset + length));
  return {
    data: [encoding === 'base64' ? data.toString('base64') : encodeBase58(data), encoding],
    executable: account.executable,
    lamports: account.lamports,
    owner: account.programAddress,
    rentEpoch: U64_MAX,
    space: account.space,
  };
}

/** Solana nodes refuse base58 for accounts over 128 bytes too: it is quadratic to encode. */
function encodeBase58(data: Buffer): string {
  if (data.length > 128) {
    throw new JsonRpcError(RPC_ERRORS.invalidParams, 'base58 encoding is limited to 128 bytes; use base64');
  }
  return getBase58Decoder().decode(data);
}

function executionValue(report: ExecutionReport) {
  return {
    err: report.err,
    logs: report.logs,
    accounts: null,
    unitsConsumed: report.unitsConsumed,
    returnData: null,
    innerInstructions: null,
  };
}

function rejectTransaction(report: ExecutionReport): never {
  if (report.err === 'SignatureFailure') {
    throw new JsonRpcError(
      RPC_ERRORS.signatureVerificationFailure,
      'Transaction signature verification failure',
    );
  }
  const reason = report.err === null ? 'unknown' : describeTransactionError(report.err);
  throw new JsonRpcError(
    RPC_ERRORS.preflightFailure,
    `Transaction simulation failed: ${reason}`,
    executionValue(report),
  );
}

const sendTransaction: Method = (runtime, params) => {
  const config = configParam(params[1]);
  const wire = wireTransactionParam(params[0], config.encoding);
  const outcome = runtime.submitTransaction(wire, { skipPreflight: config.skipPreflight === true });
  if (outcome.kind === 'invalid') {
    throw new JsonRpcError(RPC_ERRORS.invalidParams, outcome.message);
  }
  if (outcome.kind === 'rejected') {
    return rejectTransaction(outcome.report);
  }
  return outcome.signature;
};

const simulateTransaction: Method = (runtime, params) => {
  const config = configParam(params[1]);
  const wire = wireTransactionParam(params[0], config.encoding);
  const report = runtime.simulateTransaction(wire, { sigVerify: config.sigVerify === true });
  if ('message' in report) {
    throw new JsonRpcError(RPC_ERRORS.invalidParams, report.message);
  }
  const value = executionValue(report);
  return withContext(
    runtime,
    config.replaceRecentBlockhash === true ? { ...value, replacementBlockhash: runtime.block() } : value,
  );
};

const getSignatureStatuses: Method = (runtime, params) => {
  const signatures = paramsArray(params[0]).map((signature) => stringParam(signature, 'signature'));
  return withContext(
    runtime,
    signatures.map((signature) => {
      const status = runtime.signatureStatus(signature);
      return status === null
        ? null
        : {
            slot: status.slot,
            confirmations: null,
            err: status.err,
            status: status.err === null ? { Ok: null } : { Err: status.err },
            confirmationStatus: 'finalized',
          };
    }),
  );
};

const getMultipleAccounts: Method = (runtime, params) => {
  const addresses = paramsArray(params[0]).map(addressParam);
  if (addresses.length > MAX_ACCOUNTS_PER_CALL) {
    throw new JsonRpcError(
      RPC_ERRORS.invalidParams,
      `Too many inputs provided; max ${MAX_ACCOUNTS_PER_CALL}`,
    );
  }
  const config = configParam(params[1]);
  return withContext(
    runtime,
    addresses.map((address) => encodeAccount(runtime.account(address), config)),
  );
};

const requestAirdrop: Method = (runtime, params) => {
  if (runtime.environment === 'live') {
    throw new JsonRpcError(RPC_ERRORS.invalidParams, 'airdrops are disabled on the live ledger');
  }
  const signature = runtime.airdrop(addressParam(params[0]), integerParam(params[1], 'lamports'));
  if (signature === null) {
    throw new JsonRpcError(RPC_ERRORS.internal, 'airdrop failed');
  }
  return signature;
};

/** The subset of Solana's JSON-RPC that @solana/kit and the token-2022 helpers use. */
export const LOCAL_LEDGER_METHODS: Record<string, Method> = {
  getHealth: () => 'ok',
  getVersion: () => ({ 'solana-core': `${API_VERSION}-local-ledger`, 'feature-set': 0 }),
  getGenesisHash: (runtime) => runtime.genesis.genesisHash,
  getSlot: (runtime) => runtime.block().slot,
  getBlockHeight: (runtime) => runtime.block().slot,
  getLatestBlockhash: (runtime) => {
    const { blockhash, lastValidBlockHeight } = runtime.block();
    return withContext(runtime, { blockhash, lastValidBlockHeight });
  },
  isBlockhashValid: (runtime, params) =>
    withContext(runtime, runtime.isBlockhashValid(stringParam(params[0], 'blockhash'))),
  getMinimumBalanceForRentExemption: (runtime, params) =>
    runtime.minimumBalance(integerParam(params[0], 'size')),
  getBalance: (runtime, params) =>
    withContext(runtime, runtime.account(addressParam(params[0]))?.lamports ?? 0n),
  getAccountInfo: (runtime, params) =>
    withContext(runtime, encodeAccount(runtime.account(addressParam(params[0])), configParam(params[1]))),
  getMultipleAccounts,
  getSignatureStatuses,
  requestAirdrop,
  sendTransaction,
  simulateTransaction,
};
