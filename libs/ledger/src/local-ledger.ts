import { createSolanaRpcFromTransport } from '@solana/kit';
import { type LedgerEnvironment } from './ledger.port';
import { readLocalLedgerConfig } from './local-runtime/create-local-runtime';
import { type LocalLedgerRuntime } from './local-runtime/local-runtime';
import { createLocalLedgerTransport } from './local-runtime/rpc-transport';
import { createKeepAliveTransport } from './solana-rpc/keep-alive-rpc';
import { orderedSenderOver } from './solana-rpc/ordered-sender';
import { type SolanaRpcLedgerConfig } from './solana-rpc/solana-rpc-ledger';

export type LocalLedgerConnection = Pick<
  SolanaRpcLedgerConfig,
  'rpc' | 'environment' | 'assets' | 'feePayerSeed' | 'mintAuthoritySeed' | 'landsOnSend' | 'sendInOrder'
>;

/** Wires the RPC adapter to a runtime in this process (in-process transport, no socket). */
export function connectInProcess(runtime: LocalLedgerRuntime): LocalLedgerConnection {
  const transport = createLocalLedgerTransport(runtime);
  return {
    rpc: createSolanaRpcFromTransport(transport),
    environment: runtime.environment,
    assets: runtime.assets(),
    feePayerSeed: runtime.operatorKeys.feePayerSeed,
    mintAuthoritySeed: runtime.environment === 'test' ? runtime.operatorKeys.mintAuthoritySeed : undefined,
    // The local runtime executes a sent transaction (preflight included) before it answers, and a
    // batch's requests one after the other.
    landsOnSend: true,
    sendInOrder: orderedSenderOver(transport),
  };
}

/** Wires the RPC adapter to a local ledger server on this host (keys and registry from its state dir). */
export function connectOverHttp(
  url: string,
  stateDir: string,
  environment: LedgerEnvironment,
): LocalLedgerConnection {
  const { genesis, operatorKeys } = readLocalLedgerConfig(stateDir, environment);
  const transport = createKeepAliveTransport(url);
  return {
    rpc: createSolanaRpcFromTransport(transport),
    environment,
    assets: genesis.assets,
    feePayerSeed: operatorKeys.feePayerSeed,
    mintAuthoritySeed: environment === 'test' ? operatorKeys.mintAuthoritySeed : undefined,
    landsOnSend: true,
    sendInOrder: orderedSenderOver(transport),
  };
}
