// `npm test`: every check, in the order that fails fastest. Lint, typecheck and unit tests need no
// infrastructure; integration and e2e tests run against real Kafka, PostgreSQL and Redis started
// once for both by deploy/local (or the ones KAFKA_BROKERS / DATABASE_URL / REDIS_URL point at).
import { spawnSync } from 'node:child_process';
import { hasCargo } from './build-native.mjs';
import { repoRoot } from './projects.mjs';

// With cargo here the native proof engine is built by the first step, so the suite runs with it and
// must not fall back silently; the proof tests also run again with the WebAssembly engine.
const engineEnv = { ...process.env };
if (!engineEnv.CTS_PROOF_ENGINE && hasCargo()) {
  engineEnv.CTS_PROOF_ENGINE = 'native';
}
const wasmEnv = { ...process.env, CTS_PROOF_ENGINE: 'wasm' };
const PROOF_TESTS = [
  'libs/ledger/src/proof-engine',
  'libs/ledger/src/proof-pool',
  'libs/ledger/src/solana-rpc',
];

// `node tools/test.mjs lint typecheck` runs only the named steps (by their first word).
// lint: ESLint over every .ts, .mjs and .cjs file, with the Nx module boundaries (scope tags:
// custody and the ledger for transfer-service only) on the project graph `nx show projects` builds.
const steps = [
  ['build', ['node', 'tools/build.mjs']],
  ['format (prettier --check, the one formatter)', ['npx', 'prettier', '--check', '.']],
  ['lint (with module boundaries)', ['npm', 'run', '--silent', 'lint']],
  ['typecheck', ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit']],
  [
    'dashboard typecheck (apps/dashboard-ui, DOM types)',
    ['npx', 'tsc', '-p', 'apps/dashboard-ui/tsconfig.json'],
  ],
  [
    `unit tests (proof engine: ${engineEnv.CTS_PROOF_ENGINE ?? 'auto'})`,
    ['npx', 'jest', '--selectProjects', 'unit', '--ci'],
  ],
  ['proofs of every kind, both engines, verified by solana-zk-sdk', ['node', 'tools/check-proofs.mjs']],
  [
    'proof tests with the WebAssembly engine',
    ['npx', 'jest', '--selectProjects', 'unit', '--ci', ...PROOF_TESTS],
    wasmEnv,
  ],
  [
    'integration and e2e tests (real Kafka, PostgreSQL, Redis)',
    [
      'node',
      'deploy/local/with-infra.mjs',
      'npx',
      'jest',
      '--selectProjects',
      'integration',
      'e2e',
      '--runInBand',
      '--ci',
    ],
  ],
];
const only = process.argv.slice(2);
const selected = only.length === 0 ? steps : steps.filter(([name]) => only.includes(name.split(' ')[0]));
if (selected.length === 0) {
  console.error(
    `no step named ${only.join(', ')}; steps: ${steps.map(([name]) => name.split(' ')[0]).join(', ')}`,
  );
  process.exit(2);
}

const started = Date.now();
for (const [name, [command, ...args], env = engineEnv] of selected) {
  const stepStarted = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env });
  const seconds = ((Date.now() - stepStarted) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✖ ${name} failed after ${seconds} s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} (${seconds} s)`);
}
console.log(`\nall checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
