// Kafka, PostgreSQL and Redis for tests and the dev stack, started in parallel as local processes.
// Whatever KAFKA_BROKERS / DATABASE_URL / REDIS_URL already point at is used instead of starting it.
import { rmSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startKafka } from './kafka.mjs';
import { startPostgres } from './postgres.mjs';
import { startRedis } from './redis.mjs';

const COMPONENTS = [
  {
    name: 'kafka',
    envVar: 'KAFKA_BROKERS',
    start: (dir) => startKafka({ dir }),
    address: (kafka) => kafka.brokers,
    // Where the broker wants SASL/PLAIN, for the test of the apps' broker credentials (not set when
    // KAFKA_BROKERS names a broker this script did not start).
    extraEnv: (kafka) => ({
      KAFKA_TEST_SASL_BROKERS: kafka.sasl.brokers,
      KAFKA_TEST_SASL_USERNAME: kafka.sasl.username,
      KAFKA_TEST_SASL_PASSWORD: kafka.sasl.password,
    }),
  },
  {
    name: 'postgres',
    envVar: 'DATABASE_URL',
    start: (dir) => startPostgres({ dir }),
    address: (postgres) => postgres.url,
  },
  { name: 'redis', envVar: 'REDIS_URL', start: (dir) => startRedis({ dir }), address: (redis) => redis.url },
];

/**
 * Starts what is missing under `dir` (default: a fresh temporary directory, deleted on stop).
 * Returns `{ env: { KAFKA_BROKERS, DATABASE_URL, REDIS_URL }, stop() }`.
 */
export async function startInfra({ dir } = {}) {
  const rootDir = dir ? resolve(dir) : await createTemporaryDir();
  const removeRootDir = dir ? () => {} : removeOnExit(rootDir);

  const results = await Promise.allSettled(COMPONENTS.map((component) => startComponent(component, rootDir)));
  const running = results.filter((result) => result.status === 'fulfilled').map((result) => result.value);
  const stop = once(async () => {
    await Promise.all(running.map((component) => component.stop()));
    await removeRootDir();
  });

  const failures = results.filter((result) => result.status === 'rejected').map((result) => result.reason);
  if (failures.length > 0) {
    await stop();
    throw new Error(`infra did not start:\n${failures.map((error) => error.message).join('\n')}`, {
      cause: failures[0],
    });
  }
  const env = Object.fromEntries(
    running.flatMap((component) => [
      [component.envVar, component.address],
      ...Object.entries(component.extraEnv),
    ]),
  );
  return { env, stop };
}

async function createTemporaryDir() {
  const dir = await mkdtemp(join(tmpdir(), 'cts-infra-'));
  await chmod(dir, 0o755); // the postgres server may run as another user (see postgres.mjs) and must enter it
  return dir;
}

/** Deletes `dir` when the returned function is called, or at the latest when this process exits. */
function removeOnExit(dir) {
  const removeNow = () => {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // best effort: a child may still be writing into it while the process dies
    }
  };
  process.on('exit', removeNow);
  return async () => {
    process.off('exit', removeNow);
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}

async function startComponent({ name, envVar, start, address, extraEnv = () => ({}) }, rootDir) {
  const given = process.env[envVar];
  if (given) {
    report(`${name.padEnd(8)} ${given} (from ${envVar}, not started)`);
    return { envVar, address: given, extraEnv: {}, stop: async () => {} };
  }
  const startedAt = performance.now();
  let service;
  try {
    service = await start(join(rootDir, name));
  } catch (error) {
    throw new Error(`${name}: ${error.message}`, { cause: error });
  }
  const elapsedMs = Math.round(performance.now() - startedAt);
  report(`${name.padEnd(8)} ${address(service)} started in ${elapsedMs} ms`);
  return { envVar, address: address(service), extraEnv: extraEnv(service), stop: service.stop };
}

// stderr, so that a command's own stdout (e.g. `jest --json`) stays clean.
function report(line) {
  process.stderr.write(`[infra] ${line}\n`);
}

function once(fn) {
  let result;
  return () => (result ??= fn());
}
