// Builds the native proof engine (libs/ledger/native/engine: a napi-rs addon over solana-zk-sdk) into
// libs/ledger/native/cts-zk-engine.node when cargo is on PATH. Without cargo it says so and stops: the
// ledger then proves with @solana/zk-sdk (WebAssembly), so `npm install && npm start` work without Rust.
// A no-op when the addon is newer than every crate file. CTS_NATIVE_BUILD=skip skips it (to try the
// fallback on a machine that has cargo). Cargo's target dir stays in libs/ledger/native/target (ignored
// by git) so later builds only recompile what changed.
//
// The engine is built with the nightly toolchain when rustup has one: curve25519-dalek then uses its
// AVX-512 IFMA backend on CPUs that have it, and a transfer's proofs take 18 ms of CPU instead of 24
// (issue 17, session 11). If that build fails, or without nightly, the default toolchain builds it
// (AVX2). CTS_NATIVE_TOOLCHAIN=stable forces the default toolchain. The CI verifier is always built by
// the default toolchain, so it checks the nightly engine's proofs with an independent build.
// Usage: node tools/build-native.mjs [--verifier]   (--verifier also builds the CI proof verifier)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './projects.mjs';

export const nativeRoot = join(repoRoot, 'libs/ledger/native');
export const addonPath = join(nativeRoot, 'cts-zk-engine.node');
export const targetDir = join(nativeRoot, 'target');
const LIBRARY =
  { darwin: 'libcts_zk_engine.dylib', win32: 'cts_zk_engine.dll' }[process.platform] ?? 'libcts_zk_engine.so';

export function hasCargo() {
  return spawnSync('cargo', ['--version'], { stdio: 'ignore' }).status === 0;
}

function* crateFiles(dir = nativeRoot) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'target') yield* crateFiles(path);
    else if (/^(Cargo\.(toml|lock)|build\.rs)$|\.rs$/.test(entry.name)) yield path;
  }
}

function isFresh() {
  if (!existsSync(addonPath)) return false;
  const built = statSync(addonPath).mtimeMs;
  return [...crateFiles()].every((file) => statSync(file).mtimeMs <= built);
}

function hasNightly() {
  return (
    process.env.CTS_NATIVE_TOOLCHAIN !== 'stable' &&
    spawnSync('cargo', ['+nightly', '--version'], { stdio: 'ignore' }).status === 0
  );
}

function cargoBuild(packageName, log, toolchain = []) {
  const args = [...toolchain, 'build', '--release', '--locked', '-p', packageName, '--target-dir', targetDir];
  log(`build-native: cargo ${args.join(' ')}`);
  const result = spawnSync('cargo', args, { cwd: nativeRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  return result.status === 0;
}

/** With nightly when there is one (AVX-512 IFMA); else, or if that fails, with the default toolchain. */
function buildEngine(log) {
  if (hasNightly()) {
    if (cargoBuild('cts-zk-engine', log, ['+nightly'])) return true;
    log('build-native: the nightly build failed; building with the default toolchain');
  }
  return cargoBuild('cts-zk-engine', log);
}

/** { status: 'built' | 'fresh' | 'skipped' | 'failed', seconds, reason? } — never throws. */
export function buildNativeProofEngine({ log = console.log, verifier = false } = {}) {
  const started = Date.now();
  const done = (status, reason) => ({ status, reason, seconds: (Date.now() - started) / 1000 });
  if (process.env.CTS_NATIVE_BUILD === 'skip') return done('skipped', 'CTS_NATIVE_BUILD=skip');
  if (!hasCargo()) {
    log(
      'build-native: cargo not found, the native proof engine is not built (the ledger proves with WebAssembly)',
    );
    return done('skipped', 'cargo not found');
  }
  if (isFresh() && !verifier) return done('fresh');
  if (!buildEngine(log)) {
    log('build-native: the native proof engine failed to build; the ledger proves with WebAssembly');
    return done('failed', 'cargo build failed');
  }
  const staged = `${addonPath}.${process.pid}.tmp`;
  copyFileSync(join(targetDir, 'release', LIBRARY), staged);
  // A rename, not a copy over: a running process keeps the file it has mapped.
  renameSync(staged, addonPath);
  if (verifier && !cargoBuild('cts-zk-verifier', log)) return done('failed', 'the verifier failed to build');
  const result = done('built');
  log(`build-native: ${addonPath} built in ${result.seconds.toFixed(1)} s`);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = buildNativeProofEngine({ verifier: process.argv.includes('--verifier') });
  if (result.status === 'failed') process.exit(1);
}
