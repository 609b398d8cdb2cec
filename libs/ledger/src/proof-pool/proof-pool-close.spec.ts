import { performance } from 'node:perf_hooks';
import { createProofPool } from './proof-pool';
import { resolveProofWorker } from './worker-script';

describe('proof pool, closed while its workers still load', () => {
  it('terminates a worker only once it has loaded its modules', async () => {
    // Node 20 can abort the whole process when a worker is terminated in the middle of loading an
    // ES module through require (the proof worker loads @noble's ESM-only packages that way); a
    // fresh-clone CI run died of it. Under jest the worker compiles its sources as it loads them,
    // which takes hundreds of milliseconds: a close that waits for it cannot be as quick as a bare
    // terminate (a few milliseconds).
    expect(resolveProofWorker('wasm')?.mode).toBe('sources');
    const started = performance.now();
    const pool = createProofPool({ size: 2 });
    await pool.close();

    expect(performance.now() - started).toBeGreaterThan(50);
  }, 60_000);
});
