import { type LedgerEnvironment } from './ledger.port';
import { readLocalLedgerConfig } from './local-runtime/create-local-runtime';
import { type LocalLedgerRuntime } from './local-runtime/local-runtime';
import { createLocalLedgerRpc } from './local-runtime/rpc-transport';
import { createKeepAliveLedgerRpc } from './solana-rpc/keep-alive-rpc';
import { type SolanaRpcLedgerConfig } from './solana-rpc/solana-rpc-ledger';

export type LocalLedgerConnection = Pick<
  SolanaRpcLedgerConfig,
  'rpc' | 'environment' | 'assets' | 'feePayerSeed' | 'mintAuthoritySeed' | 'landsOnSend'
>;

/** Wires the RPC adapter to a runtime in this process (in-process transport, no socket). */
export function connectInProcess(runtime: LocalLedgerRuntime): LocalLedgerConnection {
  return {
    rpc: createLocalLedgerRpc(runtime),
    environment: runtime.environment,
    assets: runtime.assets(),
    feePayerSeed: runtime.operatorKeys.feePayerSeed,
    mintAuthoritySeed: runtime.environment === 'test' ? runtime.operatorKeys.mintAuthoritySeed : undefined,
    // The local runtime executes a sent transaction (preflight included) before it answers.
    landsOnSend: true,
  };
}

/** Wires the RPC adapter to a local ledger server on this host (keys and registry from its state dir). */
export function connectOverHttp(
  url: string,
  stateDir: string,
  environment: LedgerEnvironment,
): LocalLedgerConnection {
  const { genesis, operatorKeys } = readLocalLedgerConfig(stateDir, environment);
  return {
    rpc: createKeepAliveLedgerRpc(url),
    environment,
    assets: genesis.assets,
    feePayerSeed: operatorKeys.feePayerSeed,
    mintAuthoritySeed: environment === 'test' ? operatorKeys.mintAuthoritySeed : undefined,
    landsOnSend: true,
  };
}
