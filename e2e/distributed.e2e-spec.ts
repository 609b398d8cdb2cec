import { createTestDatabase, generateStackSecrets, startAppProcesses, type AppProcesses, type TestDatabase } from '@cts/testing';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { foundationBehaviour } from './support/foundation.behaviour';
import { transfersBehaviour } from './support/transfers.behaviour';

const APPS = ['account-service', 'transfer-service', 'agent-policy-service', 'approval-service', 'webhook-dispatcher', 'gateway'];

describe('distributed mode: every app its own process over Kafka, PostgreSQL and Redis', () => {
  let db: TestDatabase;
  let stack: AppProcesses;
  const secrets = generateStackSecrets();
  // transfer-service's local ledger (one replica: the ledger runs in its process) lives here.
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-distributed-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS,
      REDIS_URL: process.env.REDIS_URL,
      KAFKA_GROUP_SUFFIX: `-e2e-${Date.now()}`,
      LOG_LEVEL: 'warn',
      CTS_DATA_DIR: dataDir,
      ...secrets,
    };
    const migrated = spawnSync(process.execPath, [join(__dirname, '../tools/migrate.mjs')], { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (migrated.status !== 0) {
      throw new Error(`migrations failed: ${migrated.stderr}`);
    }
    stack = await startAppProcesses(env, { apps: APPS });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  foundationBehaviour(() => ({ baseUrl: stack.gatewayUrl, adminToken: secrets.ADMIN_TOKEN }));
  transfersBehaviour(() => ({ baseUrl: stack.gatewayUrl, adminToken: secrets.ADMIN_TOKEN }));

  it('stops every app cleanly on SIGTERM', async () => {
    const service = stack.processes.find((p) => p.app === 'webhook-dispatcher');
    expect(await service?.stop()).toBe(0);
  });
});
