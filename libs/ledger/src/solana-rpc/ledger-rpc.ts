import {
  type GetBlockHeightApi,
  type GetLatestBlockhashApi,
  type GetMinimumBalanceForRentExemptionApi,
  type GetMultipleAccountsApi,
  type GetAccountInfoApi,
  type GetSignatureStatusesApi,
  type Rpc,
  type SendTransactionApi,
  type SimulateTransactionApi,
} from '@solana/kit';

/** The RPC methods the ledger uses: `createSolanaRpc(url)` and the local runtime's RPC both satisfy it. */
export type LedgerRpcApi = GetAccountInfoApi &
  GetBlockHeightApi &
  GetLatestBlockhashApi &
  GetMinimumBalanceForRentExemptionApi &
  GetMultipleAccountsApi &
  GetSignatureStatusesApi &
  SendTransactionApi &
  SimulateTransactionApi;

export type LedgerRpc = Rpc<LedgerRpcApi>;

export interface LedgerTimeouts {
  /** Whole init() probe, including an RPC that never answers. */
  initMs: number;
  /** One RPC request. */
  requestMs: number;
  /** Waiting for one transaction to be confirmed. */
  confirmMs: number;
  /** Between signature status polls. */
  pollMs: number;
}

export const DEFAULT_TIMEOUTS: LedgerTimeouts = {
  initMs: 10_000,
  requestMs: 15_000,
  confirmMs: 90_000,
  pollMs: 400,
};

export const COMMITMENT = 'confirmed';

/** Rejects after `ms` even if the underlying promise ignores its abort signal. */
export function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The RPC answers one cheap read (the block height) within `timeoutMs`: readiness, polled. */
export async function rpcAnswers(rpc: LedgerRpc, timeoutMs: number): Promise<boolean> {
  try {
    const reading = rpc
      .getBlockHeight({ commitment: COMMITMENT })
      .send({ abortSignal: AbortSignal.timeout(timeoutMs) });
    await withDeadline(reading, timeoutMs, () => new Error(`no answer within ${timeoutMs} ms`));
    return true;
  } catch {
    return false;
  }
}
