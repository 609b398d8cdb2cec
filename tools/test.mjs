// `npm test`: every check, in the order that fails fastest. Lint, typecheck and unit tests need no
// infrastructure; integration and e2e tests run against real Kafka, PostgreSQL and Redis started
// once for both by deploy/local (or the ones KAFKA_BROKERS / DATABASE_URL / REDIS_URL point at).
import { spawnSync } from 'node:child_process';
import { repoRoot } from './projects.mjs';

const steps = [
  ['build', ['node', 'tools/build.mjs']],
  ['lint', ['npm', 'run', '--silent', 'lint']],
  ['typecheck', ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['unit tests', ['npx', 'jest', '--selectProjects', 'unit', '--ci']],
  [
    'integration and e2e tests (real Kafka, PostgreSQL, Redis)',
    ['node', 'deploy/local/with-infra.mjs', 'npx', 'jest', '--selectProjects', 'integration', 'e2e', '--runInBand', '--ci'],
  ],
];

const started = Date.now();
for (const [name, [command, ...args]] of steps) {
  const stepStarted = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - stepStarted) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✖ ${name} failed after ${seconds} s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} (${seconds} s)`);
}
console.log(`\nall checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
