import { eventually, generateTestCertificates, HttpsReceiver, startAppProcess } from '@cts/testing';
import { Client } from 'pg';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DistributedStack, startDistributedStack } from './support/distributed-stack';
import { http, type HttpResponse } from './support/http';
import { ownServer, type OwnServer } from './support/own-infra';
import { account, fund, provenBalance } from './support/transfers.behaviour';

const COMMAND_TIMEOUT_MS = 8_000;

type Party = Awaited<ReturnType<typeof account>>;

/**
 * Issue 15's faults, on a broker and a database of this test's own: the broker SIGKILLed and the
 * database restarted while transfers and webhook deliveries are in flight. During the outage a
 * request answers 503 service_unavailable with Retry-After within the command timeout; afterwards
 * every service recovers without a restart, and a retry with the same Idempotency-Key moves the
 * money once. No transfer, event or delivery is lost or duplicated.
 */
describe('outages: broker killed, database restarted, under transfers and webhook deliveries', () => {
  let kafka: OwnServer;
  let postgres: OwnServer;
  let redis: OwnServer;
  let running: DistributedStack;
  const certificates = generateTestCertificates();
  const caDir = mkdtempSync(join(tmpdir(), 'cts-e2e-ca-'));
  const receiver = new HttpsReceiver(certificates);
  const stack = () => ({ baseUrl: running.stack.gatewayUrl, adminToken: running.secrets.ADMIN_TOKEN ?? '' });

  beforeAll(async () => {
    [kafka, postgres, redis] = await Promise.all([
      ownServer('kafka'),
      ownServer('postgres'),
      ownServer('redis'),
    ]);
    await receiver.start();
    writeFileSync(join(caDir, 'ca.pem'), certificates.ca);
    running = await startDistributedStack({
      apps: ['account-service', 'transfer-service', 'webhook-dispatcher', 'gateway'],
      readyTimeoutMs: 180_000,
      env: {
        KAFKA_BROKERS: kafka.address,
        DATABASE_URL: postgres.address,
        REDIS_URL: redis.address,
        COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
        KAFKA_SESSION_TIMEOUT_MS: '10000',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem'),
        WEBHOOK_RETRY_SCHEDULE: '1s,2s,2s,2s,2s,2s,2s,2s',
      },
    });
  }, 240_000);

  afterAll(async () => {
    await running?.stop();
    await receiver.close();
    await Promise.all([kafka?.remove(), postgres?.remove(), redis?.remove()]);
    rmSync(caDir, { recursive: true, force: true });
  }, 120_000);

  const send = (from: Party, to: Party, key: string) =>
    http(stack().baseUrl, 'POST', '/v1/transfers', {
      token: from.token,
      body: { to: to.account.handle, amount: '1' },
      headers: { 'Idempotency-Key': key },
    });

  /** Sends until the stack answers 200 again (it must recover by itself), then returns that answer. */
  async function retryUntilSettled(
    from: Party,
    to: Party,
    key: string,
    withinMs: number,
  ): Promise<HttpResponse> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const answer = await send(from, to, key);
      if (answer.status === 200 || Date.now() > deadline) {
        return answer;
      }
      expect(answer).toMatchObject({ status: 503, body: { error: { code: 'service_unavailable' } } });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  /** An answer of a request in flight when the outage began: settled, or a retryable 503. */
  function expectSettledOrRetryable(answer: HttpResponse): void {
    if (answer.status !== 200 && answer.status !== 503) {
      const errorId = /error id ([\w-]+)/.exec(JSON.stringify(answer.body))?.[1] ?? '(none)';
      throw new Error(
        `${answer.status} ${JSON.stringify(answer.body)}\n${running.output.filter((line) => line.includes(errorId)).join('\n')}`,
      );
    }
  }

  /** Each transfer's final state as its sender reads it, once none is pending any more. */
  async function finalStates(from: Party, ids: string[]): Promise<Map<string, string>> {
    const states = new Map<string, string>();
    await eventually(
      async () => {
        for (const id of ids) {
          const read = await http(stack().baseUrl, 'GET', `/v1/transfers/${id}`, { token: from.token });
          states.set(id, (read.body as { status: string }).status);
        }
        expect([...states.values()].every((state) => state === 'confirmed' || state === 'failed')).toBe(true);
      },
      60_000,
      1_000,
    );
    return states;
  }

  async function subscribedPair(): Promise<{ alice: Party; bob: Party; path: string }> {
    const [alice, bob] = [await account(stack()), await account(stack())];
    const path = `/bob-${bob.account.account_id}`;
    const hook = await http(stack().baseUrl, 'POST', '/v1/webhooks', {
      token: bob.token,
      body: { url: receiver.url(path), events: ['transfer.confirmed'] },
    });
    expect(hook.status).toBe(201);
    await fund(stack(), alice, '20');
    return { alice, bob, path };
  }

  /**
   * Every transfer reached one final state once (confirmed, or failed when its settlement was cut
   * off: nothing moved), its events once, each confirmation delivered to bob's endpoint, none twice,
   * and the balances add up.
   */
  async function expectExactlyOnce(
    alice: Party,
    bob: Party,
    path: string,
    settled: Map<string, string>,
  ): Promise<void> {
    const transferIds = [...settled.keys()];
    const confirmedIds = transferIds.filter((id) => settled.get(id) === 'confirmed');
    await eventually(
      () => {
        const delivered = receiver
          .received(path)
          .map((r) => (JSON.parse(r.body) as { transfer_id: string }).transfer_id);
        expect(new Set(delivered)).toEqual(new Set(confirmedIds));
      },
      60_000,
      500,
    );
    const db = new Client({ connectionString: postgres.address });
    await db.connect();
    try {
      // Every event reached the endpoint (above); one delivery per event, none twice.
      const deliveries = await db.query<{ n: string; events: string }>(
        `SELECT count(*) AS n, count(DISTINCT d.event_id) AS events FROM webhooks.deliveries d
           JOIN webhooks.subscriptions s ON s.id = d.subscription_id WHERE s.account_id = $1`,
        [bob.account.account_id],
      );
      expect(deliveries.rows[0]).toEqual({
        n: String(confirmedIds.length),
        events: String(confirmedIds.length),
      });
      const rows = await db.query<{ id: string; status: string }>(
        'SELECT id, status FROM transfers.transfers WHERE sender_account_id = $1',
        [alice.account.account_id],
      );
      expect(new Map(rows.rows.map((r) => [r.id, r.status]))).toEqual(settled);
      const events = await db.query<{ type: string; n: string }>(
        `SELECT envelope->>'type' AS type, count(*) AS n FROM transfers.outbox
          WHERE envelope->'payload'->>'transfer_id' = ANY($1) GROUP BY 1 ORDER BY 1`,
        [transferIds],
      );
      const failedCount = transferIds.length - confirmedIds.length;
      expect(events.rows).toEqual([
        ...(confirmedIds.length > 0 ? [{ type: 'transfer.confirmed', n: String(confirmedIds.length) }] : []),
        ...(failedCount > 0 ? [{ type: 'transfer.failed', n: String(failedCount) }] : []),
        { type: 'transfer.initiated', n: String(transferIds.length) },
      ]);
    } finally {
      await db.end();
    }
    expect(await provenBalance(stack(), alice)).toBe(String(20 - confirmedIds.length));
    expect(await provenBalance(stack(), bob)).toBe(String(confirmedIds.length));
  }

  it('answers 503 with Retry-After while the broker is down, recovers without restarts, and moves money once', async () => {
    const { alice, bob, path } = await subscribedPair();
    const settledBefore = await send(alice, bob, `before-${alice.account.account_id}`);
    expect(settledBefore.status).toBe(200);
    const keys = Array.from({ length: 4 }, (_, i) => `kill-${i}-${alice.account.account_id}`);
    const inFlight = keys.map((key) => send(alice, bob, key));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await kafka.kill();

    const started = Date.now();
    const duringOutage = await send(alice, bob, `outage-${alice.account.account_id}`);
    expect(duringOutage).toMatchObject({ status: 503, body: { error: { code: 'service_unavailable' } } });
    expect(duringOutage.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Date.now() - started).toBeLessThan(COMMAND_TIMEOUT_MS + 3_000);
    (await Promise.all(inFlight)).forEach(expectSettledOrRetryable);

    await kafka.start();
    const pids = running.stack.processes.map((p) => p.pid);
    const ids = [(settledBefore.body as { transfer_id: string }).transfer_id];
    for (const key of [...keys, `outage-${alice.account.account_id}`]) {
      const settled = await retryUntilSettled(alice, bob, key, 120_000);
      expect(settled.status).toBe(200);
      ids.push((settled.body as { transfer_id: string }).transfer_id);
    }
    const again = await send(alice, bob, keys[0] ?? '');
    expect((again.body as { transfer_id: string }).transfer_id).toBe(ids[1]);
    expect(running.stack.processes.map((p) => p.pid)).toEqual(pids);
    await expectExactlyOnce(alice, bob, path, await finalStates(alice, ids));
  }, 300_000);

  it('recovers from a PostgreSQL restart under load without restarts, and moves money once', async () => {
    const { alice, bob, path } = await subscribedPair();
    const keys = Array.from({ length: 4 }, (_, i) => `pg-${i}-${alice.account.account_id}`);
    const inFlight = keys.map((key) => send(alice, bob, key));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await postgres.stop();
    const duringOutage = await send(alice, bob, `pg-outage-${alice.account.account_id}`);
    expectSettledOrRetryable(duringOutage);
    expect(duringOutage.status).toBe(503);
    (await Promise.all(inFlight)).forEach(expectSettledOrRetryable);
    await postgres.start();

    const pids = running.stack.processes.map((p) => p.pid);
    const ids: string[] = [];
    for (const key of [...keys, `pg-outage-${alice.account.account_id}`]) {
      const settled = await retryUntilSettled(alice, bob, key, 120_000);
      expect(settled.status).toBe(200);
      ids.push((settled.body as { transfer_id: string }).transfer_id);
    }
    expect(running.stack.processes.map((p) => p.pid)).toEqual(pids);
    await expectExactlyOnce(alice, bob, path, await finalStates(alice, ids));
  }, 300_000);

  it('answers 503 with Retry-After while Redis is down, and serves again once it is back', async () => {
    const alice = await account(stack());
    const me = () => http(stack().baseUrl, 'GET', '/v1/accounts/me', { token: alice.token });
    expect((await me()).status).toBe(200);

    await redis.stop();
    const during = await me();
    const transfer = await http(stack().baseUrl, 'POST', '/v1/transfers', {
      token: alice.token,
      body: { to: '@nobody', amount: '1' },
      headers: { 'Idempotency-Key': `redis-down-${alice.account.account_id}` },
    });
    await redis.start();

    for (const answer of [during, transfer]) {
      expect(answer).toMatchObject({ status: 503, body: { error: { code: 'service_unavailable' } } });
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    await eventually(async () => expect((await me()).status).toBe(200), 30_000, 500);
  }, 120_000);

  it('refuses to start a distributed gateway without REDIS_URL, saying why', async () => {
    const output: string[] = [];
    const env = { ...running.env, REDIS_URL: undefined };
    await expect(
      startAppProcess('gateway', env, {
        onOutput: (_app, line) => output.push(line),
        readyTimeoutMs: 60_000,
      }),
    ).rejects.toThrow(/exited with code 1/);
    expect(output.join('\n')).toContain('REDIS_URL is not set');
  }, 90_000);
});
