// `npm run stack`: the distributed mode on this machine. Starts Kafka, PostgreSQL and Redis (or uses
// KAFKA_BROKERS / DATABASE_URL / REDIS_URL), applies migrations, then runs every app as its own
// process wired through them. Ctrl-C stops everything.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { startInfra } from './infra.mjs';

const repoRoot = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const APPS = [
  'account-service',
  'transfer-service',
  'agent-policy-service',
  'approval-service',
  'webhook-dispatcher',
  'gateway',
];

const build = spawnSync(process.execPath, [join(repoRoot, 'tools/build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const { startAppProcesses, generateStackSecrets } = createRequire(import.meta.url)(
  join(repoRoot, 'dist/libs/runtime'),
);

const dataDir = join(process.env.CTS_DATA_DIR ?? join(repoRoot, '.data'), 'stack');
mkdirSync(dataDir, { recursive: true });
const infra = await startInfra();
const env = {
  ...infra.env,
  ...generateStackSecrets(),
  PORT: process.env.PORT ?? '8080',
  CTS_DATA_DIR: dataDir,
};

const migrate = spawnSync(process.execPath, [join(repoRoot, 'tools/migrate.mjs')], {
  stdio: 'inherit',
  env: { ...process.env, ...env },
});
if (migrate.status !== 0) {
  await infra.stop();
  process.exit(migrate.status ?? 1);
}

let stack;
const shutdown = async (signal) => {
  console.log(`\n${signal}: stopping the stack…`);
  await stack?.stop();
  await infra.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  stack = await startAppProcesses(env, { apps: APPS });
} catch (error) {
  console.error('the stack did not start:', error.message);
  await infra.stop();
  process.exit(1);
}
console.log(`
Confidential Transfer Service is running (distributed: ${APPS.length} processes over Kafka) at ${stack.gatewayUrl}
  Admin token:  ${env.ADMIN_TOKEN}   (this run only)
  Kafka:        ${env.KAFKA_BROKERS}
Try:  ADMIN_TOKEN=${env.ADMIN_TOKEN} npx cts --url ${stack.gatewayUrl} accounts create @alice --type personal --kyc verified
Stop: Ctrl-C
`);
