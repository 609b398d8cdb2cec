import {
  createTestDatabase,
  generateStackSecrets,
  startAppProcesses,
  type AppProcesses,
  type TestDatabase,
} from '@cts/testing';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ALL_APPS = [
  'account-service',
  'transfer-service',
  'agent-policy-service',
  'approval-service',
  'webhook-dispatcher',
  'gateway',
];

export interface DistributedStack {
  db: TestDatabase;
  stack: AppProcesses;
  env: Record<string, string | undefined>;
  secrets: Record<string, string>;
  /** Every line every app printed, as `[app] line`. */
  output: string[];
  stop(): Promise<void>;
}

/**
 * Every app its own process over the real Kafka, PostgreSQL and Redis of the test run, on a fresh
 * database and fresh consumer groups; transfer-service's local ledger in a temporary directory.
 */
export async function startDistributedStack(
  options: {
    apps?: string[];
    env?: Record<string, string>;
    replicas?: Record<string, number>;
    readyTimeoutMs?: number;
  } = {},
): Promise<DistributedStack> {
  const db = await createTestDatabase();
  const secrets = generateStackSecrets();
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-distributed-'));
  const env: Record<string, string | undefined> = {
    DATABASE_URL: db.url,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    REDIS_URL: process.env.REDIS_URL,
    KAFKA_GROUP_SUFFIX: `-e2e-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`,
    LOG_LEVEL: 'warn',
    CTS_DATA_DIR: dataDir,
    ...secrets,
    ...options.env,
  };
  const migrated = spawnSync(process.execPath, [join(__dirname, '../../tools/migrate.mjs')], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (migrated.status !== 0) {
    throw new Error(`migrations failed: ${migrated.stderr}`);
  }
  const output: string[] = [];
  const stack = await startAppProcesses(env, {
    apps: options.apps ?? ALL_APPS,
    replicas: options.replicas,
    readyTimeoutMs: options.readyTimeoutMs,
    onOutput: (app, line) => output.push(`[${app}] ${line}`),
  });
  return {
    db,
    stack,
    env,
    secrets,
    output,
    async stop() {
      await stack.stop();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
