import { LedgerError } from '../ledger.errors';
import { loadNativeProofEngine } from './native-proof-engine';
import { type ProofEngine, type ProofEngineName } from './proof-engine';
import { createWasmProofEngine } from './wasm-proof-engine';

/** `CTS_PROOF_ENGINE`: auto (native when built, else WebAssembly), native (required), wasm (forced). */
export type ProofEngineChoice = 'auto' | ProofEngineName;

export interface SelectedProofEngine {
  engine: ProofEngine;
  /** One line for the log: which engine proves, and why that one. */
  description: string;
}

export function proofEngineChoiceFromEnv(env: NodeJS.ProcessEnv = process.env): ProofEngineChoice {
  const value = env.CTS_PROOF_ENGINE?.trim() || 'auto';
  if (value === 'auto' || value === 'native' || value === 'wasm') {
    return value;
  }
  throw new LedgerError(
    'proof_engine_unavailable',
    `CTS_PROOF_ENGINE must be auto, native or wasm, got "${value}"`,
  );
}

const loaded = new Map<ProofEngineName, ProofEngine>();

/** One engine object per thread and kind (the addon and the WebAssembly module load once). */
export function proofEngineNamed(name: ProofEngineName): ProofEngine {
  let engine = loaded.get(name);
  if (engine === undefined) {
    engine = name === 'native' ? loadNativeProofEngine() : createWasmProofEngine();
    loaded.set(name, engine);
  }
  return engine;
}

export function selectProofEngine(
  choice: ProofEngineChoice = proofEngineChoiceFromEnv(),
  loadNative: () => ProofEngine = () => proofEngineNamed('native'),
): SelectedProofEngine {
  if (choice === 'wasm') {
    const engine = proofEngineNamed('wasm');
    return { engine, description: `proof engine: ${engine.library} (CTS_PROOF_ENGINE=wasm)` };
  }
  try {
    const engine = loadNative();
    return { engine, description: `proof engine: ${engine.library}` };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (choice === 'native') {
      throw new LedgerError(
        'proof_engine_unavailable',
        `CTS_PROOF_ENGINE=native but the native proof engine does not load: ${reason}`,
        { cause: error },
      );
    }
    const engine = proofEngineNamed('wasm');
    return {
      engine,
      description: `proof engine: ${engine.library}; the native engine is unavailable: ${reason}`,
    };
  }
}
