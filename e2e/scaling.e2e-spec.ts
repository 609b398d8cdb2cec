import { type LocalLedgerServer, startLocalLedgerServer } from '@cts/ledger';
import { generateTestCertificates, HttpsReceiver } from '@cts/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DistributedStack, startDistributedStack } from './support/distributed-stack';
import { http } from './support/http';
import { account, fund } from './support/transfers.behaviour';

const scrape = async (url: string) => (await fetch(`${url}/metrics`)).text();
const settledBy = (metrics: string) =>
  [
    ...metrics.matchAll(/cts_transfer_settlement_seconds_count\{asset="USDC",outcome="confirmed"\} (\d+)/g),
  ].reduce((sum, m) => sum + Number(m[1]), 0);

/**
 * Issue 7: two replicas of transfer-service (sharing one local ledger server, as they would share a
 * cluster) and of webhook-dispatcher share the work by partition; nothing is processed twice, also
 * when one replica is stopped with SIGTERM under load.
 */
describe('scaling: two replicas of each consumer', () => {
  const ledgerDir = mkdtempSync(join(tmpdir(), 'cts-shared-ledger-'));
  const caDir = mkdtempSync(join(tmpdir(), 'cts-scaling-ca-'));
  const certificates = generateTestCertificates();
  const receiver = new HttpsReceiver(certificates);
  let ledgers: LocalLedgerServer[] = [];
  let running: DistributedStack;

  beforeAll(async () => {
    await receiver.start();
    writeFileSync(join(caDir, 'ca.pem'), certificates.ca);
    ledgers = await Promise.all(
      (['test', 'live'] as const).map((environment) =>
        startLocalLedgerServer({ port: 0, stateDir: ledgerDir, environment }),
      ),
    );
    running = await startDistributedStack({
      replicas: { 'transfer-service': 2, 'webhook-dispatcher': 2 },
      env: {
        LEDGER_STATE_DIR: ledgerDir,
        LEDGER_RPC_URL_TEST: ledgers[0]?.url ?? '',
        LEDGER_RPC_URL_LIVE: ledgers[1]?.url ?? '',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem'),
        KAFKA_SESSION_TIMEOUT_MS: '6000',
      },
    });
  }, 180_000);

  afterAll(async () => {
    await running?.stop();
    await Promise.all(ledgers.map((ledger) => ledger.close()));
    await receiver.close();
    rmSync(ledgerDir, { recursive: true, force: true });
    rmSync(caDir, { recursive: true, force: true });
  }, 60_000);

  it('shares transfers and deliveries between replicas, once each, through a SIGTERM under load', async () => {
    const stack = { baseUrl: running.stack.gatewayUrl, adminToken: running.secrets.ADMIN_TOKEN ?? '' };
    const senders = await Promise.all(Array.from({ length: 6 }, () => account(stack)));
    const recipient = await account(stack);
    await Promise.all(senders.map((sender) => fund(stack, sender, '10')));
    const hook = await http(stack.baseUrl, 'POST', '/v1/webhooks', {
      token: recipient.token,
      body: { url: receiver.url('/recipient'), events: ['transfer.confirmed'] },
    });
    expect(hook.status).toBe(201);

    const replicas = running.stack.processes.filter((p) => p.app === 'transfer-service');
    const results: { status: number; id?: string }[] = [];
    const send = async (sender: (typeof senders)[number], n: number) => {
      const request = {
        token: sender.token,
        body: { to: recipient.account.handle, amount: '1' },
        headers: { 'Idempotency-Key': `scale-${n}` },
      };
      // A client retries an unanswered request with the same key, as the SDK does.
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const response = await http(stack.baseUrl, 'POST', '/v1/transfers', request);
        if (response.status !== 503) {
          results.push({
            status: response.status,
            id: (response.body as { transfer_id?: string }).transfer_id,
          });
          return;
        }
      }
      results.push({ status: 503 });
    };
    const load = Promise.all(
      senders.map(async (sender, index) => {
        for (let n = 0; n < 3; n += 1) {
          await send(sender, index * 10 + n);
        }
      }),
    );
    // Both replicas settle part of the load (their partitions), then one is stopped mid-load.
    let settled: number[] = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      settled = (await Promise.all(replicas.map((replica) => scrape(replica.healthUrl)))).map(settledBy);
      if (settled.every((count) => count > 0)) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await replicas[1]?.stop()).toBe(0);
    await load;

    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 18 }, () => 200));
    expect(new Set(results.map((r) => r.id)).size).toBe(18);
    expect(settled.every((count) => count > 0)).toBe(true);
    const listed = await http(stack.baseUrl, 'GET', '/v1/transfers?limit=100', { token: recipient.token });
    const transfers = (listed.body as { transfers: { transfer_id: string; status: string }[] }).transfers;
    expect(transfers).toHaveLength(18);
    expect(transfers.every((t) => t.status === 'confirmed')).toBe(true);

    // Each confirmed transfer reaches the recipient's endpoint once, whichever dispatcher had it.
    const deadline = Date.now() + 60_000;
    while (receiver.received('/recipient').length < 18 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const ids = receiver.received('/recipient').map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(18);
    expect(new Set(ids).size).toBe(18);
  }, 180_000);
});
