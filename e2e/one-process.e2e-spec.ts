import { findFreePort } from '@cts/testing';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from './support/http';
import { agentsBehaviour } from './support/agents.behaviour';
import { approvalsBehaviour } from './support/approvals.behaviour';
import { metricsBehaviour } from './support/metrics.behaviour';
import { OtlpCollector } from './support/otlp-collector';
import { tracingBehaviour } from './support/tracing.behaviour';
import { sdkQuickstartBehaviour } from './support/sdk-quickstart.behaviour';
import { foundationBehaviour } from './support/foundation.behaviour';
import { account, fund, provenBalance, transfersBehaviour } from './support/transfers.behaviour';

interface OneProcess {
  child: ChildProcess;
  baseUrl: string;
  output: string[];
}

const collector = new OtlpCollector();

async function startOneProcess(dataDir: string): Promise<OneProcess> {
  const port = await findFreePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    CTS_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Tracing on, to a stand-in collector (it is off by default).
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_BSP_SCHEDULE_DELAY: '200',
  };
  delete env.DATABASE_URL;
  delete env.KAFKA_BROKERS;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [join(__dirname, '../tools/start.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (!output.join('').includes('is running')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`npm start did not come up:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, baseUrl, output };
}

async function stopOneProcess(running: OneProcess): Promise<number | null> {
  const exit = once(running.child, 'exit');
  running.child.kill('SIGINT');
  const [code] = (await exit) as [number | null];
  return code;
}

describe('one-process mode (npm start): embedded PostgreSQL and the in-process bus', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-one-process-'));
  let running: OneProcess;
  let adminToken: string;

  beforeAll(async () => {
    await collector.start();
    running = await startOneProcess(dataDir);
    adminToken = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
  }, 120_000);

  afterAll(async () => {
    if (running.child.exitCode === null) {
      await stopOneProcess(running);
    }
    rmSync(dataDir, { recursive: true, force: true });
    await collector.close();
  }, 60_000);

  it('prints its URL, where the admin token is, and an example', () => {
    const banner = running.output.join('');
    expect(banner).toContain(running.baseUrl.replace('127.0.0.1', 'localhost').split(':')[0] ?? '');
    expect(banner).toContain(join(dataDir, 'admin-token'));
    expect(banner).toContain('npx cts accounts create');
  });

  foundationBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));
  transfersBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));
  agentsBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));
  approvalsBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }), { expiry: false });
  sdkQuickstartBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));
  metricsBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));
  tracingBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }), () => collector);

  it('shuts down cleanly on Ctrl-C and reuses its data and ledger on the next start', async () => {
    const created = await account({ baseUrl: running.baseUrl, adminToken });
    await fund({ baseUrl: running.baseUrl, adminToken }, created, '7.25');
    const before = await http(running.baseUrl, 'GET', '/v1/accounts/me', { token: created.token });
    expect(await stopOneProcess(running)).toBe(0);
    running = await startOneProcess(dataDir);
    const me = await http(running.baseUrl, 'GET', '/v1/accounts/me', { token: created.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(before.body);
    expect(await provenBalance({ baseUrl: running.baseUrl, adminToken }, created)).toBe('7.25');
  }, 120_000);
});
