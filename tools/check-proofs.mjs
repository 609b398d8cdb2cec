// CI check of the proofs (`npm test` runs it): one proof of every kind the service generates, from
// each proof engine, verified by a small program built from the solana-zk-sdk crate (the code of the
// on-chain ZK ElGamal proof program). A dependency change that produced proofs the current verifier
// rejects fails here. Also checks that nothing loads @solana/zk-sdk's CommonJS entry
// (dist/node/index.cjs: an older wasm build whose proofs the current verifier rejects).
// Without cargo it says so and checks only that the CommonJS entry stays unloaded.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from './build.mjs';
import { buildNativeProofEngine, hasCargo, targetDir } from './build-native.mjs';
import { repoRoot } from './projects.mjs';

const OUTDATED_CJS_ENTRY = /@solana[\\/]zk-sdk[\\/]dist[\\/]node[\\/]index\.cjs$/;

await build();
const require = createRequire(import.meta.url);
// Everything that touches zk-sdk: the ledger (both engines), custody, the SDK, the crypto library.
const ledger = require(join(repoRoot, 'dist/libs/ledger'));
for (const lib of ['crypto', 'custody', 'sdk']) require(join(repoRoot, 'dist/libs', lib));
require('@solana-program/token-2022/confidential');

let failures = 0;
const loadedCjs = Object.keys(require.cache).filter((path) => OUTDATED_CJS_ENTRY.test(path));
if (loadedCjs.length > 0) {
  failures += 1;
  console.error(`✖ @solana/zk-sdk's CommonJS entry is loaded: ${loadedCjs.join(', ')}`);
}
try {
  require(join(repoRoot, 'node_modules/@solana/zk-sdk/dist/node/index.cjs'));
  failures += 1;
  console.error('✖ requiring @solana/zk-sdk/dist/node/index.cjs was not refused');
} catch (error) {
  console.log(
    `ok      loading @solana/zk-sdk/dist/node/index.cjs is refused (${error.message.slice(0, 60)}…)`,
  );
}

if (!hasCargo()) {
  console.log(
    'check-proofs: cargo not found; the solana-zk-sdk verifier is not built, only the loader was checked',
  );
  process.exit(failures === 0 ? 0 : 1);
}
const built = buildNativeProofEngine({ verifier: true });
if (built.status === 'failed') {
  console.error(`✖ ${built.reason}`);
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'cts-proofs-'));
try {
  for (const name of ['wasm', 'native']) {
    const proofs = ledger.proofsOfEveryKind(ledger.proofEngineNamed(name));
    for (const kind of ledger.PROOF_KINDS) writeFileSync(join(dir, `${kind}.${name}.bin`), proofs[kind]);
  }
  const verifier = join(
    targetDir,
    'release',
    process.platform === 'win32' ? 'cts-zk-verifier.exe' : 'cts-zk-verifier',
  );
  const result = spawnSync(verifier, [dir], { stdio: 'inherit' });
  if (result.status !== 0) failures += 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failures === 0 ? 0 : 1);
