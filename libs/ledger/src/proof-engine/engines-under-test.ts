import { nativeAddonPath } from './native-proof-engine';
import { type ProofEngineName } from './proof-engine';
import { proofEngineChoiceFromEnv } from './select-proof-engine';

/**
 * The engines a test runs with both of: WebAssembly always, native whenever its addon is built, and
 * necessarily when CTS_PROOF_ENGINE=native (npm test sets it where cargo is, so CI cannot quietly
 * test only one). A machine without Rust tests the WebAssembly engine alone.
 */
export function enginesUnderTest(): ProofEngineName[] {
  const native = proofEngineChoiceFromEnv() === 'native' || nativeAddonPath() !== null;
  return native ? ['wasm', 'native'] : ['wasm'];
}
