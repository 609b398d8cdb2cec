import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from './support/http';
import { type OneProcessMode, startOneProcessMode } from './support/one-process-mode';
import { agentsBehaviour } from './support/agents.behaviour';
import { agentTransactionsBehaviour } from './support/agent-transactions.behaviour';
import { securityBehaviour } from './support/security.behaviour';
import { approvalsBehaviour } from './support/approvals.behaviour';
import { metricsBehaviour } from './support/metrics.behaviour';
import { OtlpCollector } from './support/otlp-collector';
import { tracingBehaviour } from './support/tracing.behaviour';
import { sdkQuickstartBehaviour } from './support/sdk-quickstart.behaviour';
import { foundationBehaviour } from './support/foundation.behaviour';
import { eventsBehaviour } from './support/events.behaviour';
import { listenBehaviour } from './support/listen.behaviour';
import { malformedInputBehaviour } from './support/malformed-input.behaviour';
import { account, fund, provenBalance, transfersBehaviour } from './support/transfers.behaviour';

const collector = new OtlpCollector();

// Tracing on, to a stand-in collector (it is off by default).
const startOneProcess = (dataDir: string) =>
  startOneProcessMode(dataDir, {
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_BSP_SCHEDULE_DELAY: '200',
  });

describe('one-process mode (npm start): embedded PostgreSQL and the in-process bus', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-one-process-'));
  let running: OneProcessMode;
  let adminToken: string;

  beforeAll(async () => {
    await collector.start();
    running = await startOneProcess(dataDir);
    adminToken = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
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
  securityBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));
  approvalsBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }), { expiry: false });
  agentTransactionsBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));
  sdkQuickstartBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));
  eventsBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));
  listenBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));
  metricsBehaviour(
    () => ({ baseUrl: running.baseUrl, adminToken }),
    () => running.metricsUrl,
  );
  tracingBehaviour(
    () => ({ baseUrl: running.baseUrl, adminToken }),
    () => collector,
  );
  // After tracing, so that its ≈ 1,000 requests' spans are not still being exported during it.
  malformedInputBehaviour(() => ({ baseUrl: running.baseUrl, adminToken }));

  it('shuts down cleanly on Ctrl-C and reuses its data and ledger on the next start', async () => {
    const created = await account({ baseUrl: running.baseUrl, adminToken });
    await fund({ baseUrl: running.baseUrl, adminToken }, created, '7.25');
    const before = await http(running.baseUrl, 'GET', '/v1/accounts/me', { token: created.token });
    expect(await running.stop()).toBe(0);
    running = await startOneProcess(dataDir);
    const me = await http(running.baseUrl, 'GET', '/v1/accounts/me', { token: created.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(before.body);
    expect(await provenBalance({ baseUrl: running.baseUrl, adminToken }, created)).toBe('7.25');
  }, 120_000);
});
