import { type RpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import { type LedgerAsset, type LedgerEnvironment } from './ledger.port';
import { readLocalLedgerConfig } from './local-runtime/create-local-runtime';
import { type LocalLedgerRuntime, type LocalOperatorKeys } from './local-runtime/local-runtime';
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
  return localConnection(createLocalLedgerTransport(runtime), runtime.environment, {
    assets: runtime.assets(),
    operatorKeys: runtime.operatorKeys,
  });
}

/** Wires the RPC adapter to a local ledger server on this host (keys and registry from its state dir). */
export function connectOverHttp(
  url: string,
  stateDir: string,
  environment: LedgerEnvironment,
): LocalLedgerConnection {
  const { genesis, operatorKeys } = readLocalLedgerConfig(stateDir, environment);
  return localConnection(createKeepAliveTransport(url), environment, {
    assets: genesis.assets,
    operatorKeys,
  });
}

function localConnection(
  transport: RpcTransport,
  environment: LedgerEnvironment,
  { assets, operatorKeys }: { assets: LedgerAsset[]; operatorKeys: LocalOperatorKeys },
): LocalLedgerConnection {
  return {
    rpc: createSolanaRpcFromTransport(transport),
    environment,
    assets,
    feePayerSeed: operatorKeys.feePayerSeed,
    mintAuthoritySeed: environment === 'test' ? operatorKeys.mintAuthoritySeed : undefined,
    // The local runtime executes a sent transaction (preflight included) before it answers, and a
    // batch's requests one after the other.
    landsOnSend: true,
    sendInOrder: orderedSenderOver(transport),
  };
}
