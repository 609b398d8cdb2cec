import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createProofPool } from '../proof-pool/proof-pool';
import { loadNativeProofEngine } from './native-proof-engine';
import { proofEngineChoiceFromEnv, selectProofEngine } from './select-proof-engine';

const missingAddon = () => loadNativeProofEngine(join(__dirname, 'no-such-addon.node'));

describe('choosing the proof engine', () => {
  it('reads CTS_PROOF_ENGINE: auto by default, native or wasm on request, anything else refused', () => {
    expect(proofEngineChoiceFromEnv({})).toBe('auto');
    expect(proofEngineChoiceFromEnv({ CTS_PROOF_ENGINE: 'wasm' })).toBe('wasm');
    expect(proofEngineChoiceFromEnv({ CTS_PROOF_ENGINE: ' native ' })).toBe('native');
    expect(() => proofEngineChoiceFromEnv({ CTS_PROOF_ENGINE: 'gpu' })).toThrow(/auto, native or wasm/);
  });

  it('falls back to WebAssembly when the addon does not load, and says why', () => {
    const selected = selectProofEngine('auto', missingAddon);
    expect(selected.engine.name).toBe('wasm');
    expect(selected.description).toMatch(
      /^proof engine: @solana\/zk-sdk .*WebAssembly.*native engine is unavailable/,
    );
  });

  it('refuses to start without the addon when the native engine is required', () => {
    expect(() => selectProofEngine('native', missingAddon)).toThrow(
      expect.objectContaining({ code: 'proof_engine_unavailable' }),
    );
    expect(() => loadNativeProofEngine(null)).toThrow(/not built/);
  });

  it('forces WebAssembly on request, and the pool proves with the engine it chose', async () => {
    expect(selectProofEngine('wasm').description).toBe(
      'proof engine: @solana/zk-sdk 0.4.1 (WebAssembly) (CTS_PROOF_ENGINE=wasm)',
    );
    const pool = createProofPool({ size: 0, engine: 'wasm' });
    expect(pool.engine.name).toBe('wasm');
    await pool.close();
  });

  it('installs on a machine without cargo: the native build says so and stops without failing', () => {
    const repoRoot = join(__dirname, '..', '..', '..', '..');
    const result = spawnSync(process.execPath, [join(repoRoot, 'tools/build-native.mjs')], {
      env: { PATH: dirname(process.execPath) },
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('cargo not found, the native proof engine is not built');
  });
});
