import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type ProofEngineName } from '../proof-engine/proof-engine';

export interface WorkerLaunch {
  filename: string;
  workerData: unknown;
  mode: 'compiled' | 'sources';
}

/**
 * From dist the compiled proof-worker.js sits next to this file. From TypeScript sources (jest) there
 * is only proof-worker.ts: a small CommonJS bootstrap compiles it on the fly with @swc/core. Null when
 * neither exists (e.g. a bundle): the pool then builds in-thread.
 */
export function resolveProofWorker(
  engine: ProofEngineName,
  directory: string = __dirname,
): WorkerLaunch | null {
  const compiled = join(directory, 'proof-worker.js');
  if (existsSync(compiled)) {
    return { filename: compiled, workerData: { engine }, mode: 'compiled' };
  }
  const source = join(directory, 'proof-worker.ts');
  const bootstrap = join(directory, 'source-worker-bootstrap.cjs');
  if (existsSync(source) && existsSync(bootstrap)) {
    const libsRoot = join(directory, '..', '..', '..');
    return {
      filename: bootstrap,
      workerData: { engine, bootstrap: { entry: source, libsRoot } },
      mode: 'sources',
    };
  }
  return null;
}
