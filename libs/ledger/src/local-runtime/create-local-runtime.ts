import { createKeyPairSignerFromPrivateKeyBytes } from '@solana/kit';
import { type LedgerEnvironment } from '../ledger.port';
import { BlockClock } from './block-clock';
import { type LocalLedgerGenesis, runGenesis } from './genesis';
import { LocalLedgerRuntime, type LocalOperatorKeys } from './local-runtime';
import { LedgerStateStore } from './state-file';
import {
  acquireLock,
  ensureDirectory,
  loadOrCreateSeed,
  readGenesis,
  readSeed,
  stateLayout,
  writeGenesis,
} from './state-directory';
import { createSvm } from './svm-factory';

export interface LocalLedgerRuntimeOptions {
  stateDir: string;
  environment: LedgerEnvironment;
  /** 'disabled' mimics mainnet/devnet while confidential transfers were paused (for fail-fast tests). */
  zkElGamalProofProgram?: 'enabled' | 'disabled';
}

/** Starts (or restarts from its state directory) one environment's local ledger. */
export async function createLocalLedgerRuntime(
  options: LocalLedgerRuntimeOptions,
): Promise<LocalLedgerRuntime> {
  const layout = stateLayout(options.stateDir, options.environment);
  ensureDirectory(layout);
  const release = acquireLock(layout.lock);
  try {
    const operatorKeys: LocalOperatorKeys = {
      feePayerSeed: loadOrCreateSeed(layout.feePayerKey),
      mintAuthoritySeed: loadOrCreateSeed(layout.mintAuthorityKey),
    };
    const svm = createSvm({ zkElGamalProofProgram: options.zkElGamalProofProgram ?? 'enabled' });
    const store = new LedgerStateStore(layout.state, layout.journal);
    const saved = store.load();
    const clock = new BlockClock(saved === null ? svm.getClock().slot : BigInt(saved.slot) + 1n);
    const runtime = new LocalLedgerRuntime(options.environment, svm, clock);
    if (saved !== null) {
      runtime.restore(saved);
    }
    runtime.persistTo(store);
    const genesis = readGenesis(layout.genesis) ?? (await firstStart(runtime, operatorKeys, layout.genesis));
    runtime.attach({ genesis, operatorKeys, release });
    return runtime;
  } catch (error) {
    release();
    throw error;
  }
}

async function firstStart(
  runtime: LocalLedgerRuntime,
  operatorKeys: LocalOperatorKeys,
  genesisPath: string,
): Promise<LocalLedgerGenesis> {
  const [feePayer, mintAuthority] = await Promise.all([
    createKeyPairSignerFromPrivateKeyBytes(operatorKeys.feePayerSeed),
    createKeyPairSignerFromPrivateKeyBytes(operatorKeys.mintAuthoritySeed),
  ]);
  const genesis = await runGenesis(runtime, feePayer, mintAuthority);
  // Genesis is recorded last (its transactions are already journaled): a crash before this line
  // re-runs it on the next start.
  writeGenesis(genesisPath, genesis);
  return genesis;
}

export interface LocalLedgerConfig {
  environment: LedgerEnvironment;
  genesis: LocalLedgerGenesis;
  operatorKeys: LocalOperatorKeys;
}

/**
 * For another process on the same host that talks to a running local ledger over HTTP: the asset
 * registry and operator keys, read from the state directory (no RPC method hands out keys).
 */
export function readLocalLedgerConfig(stateDir: string, environment: LedgerEnvironment): LocalLedgerConfig {
  const layout = stateLayout(stateDir, environment);
  const genesis = readGenesis(layout.genesis);
  if (genesis === null) {
    throw new Error(`no local ledger genesis in ${layout.directory}: start the local ledger first`);
  }
  return {
    environment,
    genesis,
    operatorKeys: {
      feePayerSeed: readSeed(layout.feePayerKey),
      mintAuthoritySeed: readSeed(layout.mintAuthorityKey),
    },
  };
}
