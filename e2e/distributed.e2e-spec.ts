import { agentsBehaviour } from './support/agents.behaviour';
import { agentTransactionsBehaviour } from './support/agent-transactions.behaviour';
import { securityBehaviour } from './support/security.behaviour';
import { approvalsBehaviour } from './support/approvals.behaviour';
import { createEnvelope } from '@cts/contracts';
import { eventually, generateTestCertificates, HttpsReceiver, startAppProcess } from '@cts/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { foundationBehaviour } from './support/foundation.behaviour';
import { metricsBehaviour } from './support/metrics.behaviour';
import { OtlpCollector } from './support/otlp-collector';
import { tracingBehaviour } from './support/tracing.behaviour';
import { http, uniqueHandle } from './support/http';
import { type DistributedStack, startDistributedStack } from './support/distributed-stack';
import { account, fund, transfersBehaviour } from './support/transfers.behaviour';
import { webhooksBehaviour } from './support/webhooks.behaviour';
import { eventsBehaviour } from './support/events.behaviour';
import { malformedInputBehaviour } from './support/malformed-input.behaviour';
import { eventContractViolations, readEventTopics, type TopicMessage } from './support/event-topics-contract';

/** Event types the behaviours above raise: the contract test below must have seen each. */
const RAISED_BY_THIS_SUITE = [
  'account.created',
  'agent.created',
  'agent.policy.updated',
  'agent.transaction.approved',
  'agent.transaction.expired',
  'agent.transaction.pending_approval',
  'agent.transaction.rejected',
  'transfer.confirmed',
  'transfer.initiated',
];

describe('distributed mode: every app its own process over Kafka, PostgreSQL and Redis', () => {
  let running: DistributedStack;
  let eventTopics: { messages: TopicMessage[]; stop(): Promise<void> } | undefined;
  const startedAt = new Date().toISOString();

  const certificates = generateTestCertificates();
  const caDir = mkdtempSync(join(tmpdir(), 'cts-e2e-ca-'));
  const receiver = new HttpsReceiver(certificates);
  const collector = new OtlpCollector();

  beforeAll(async () => {
    await receiver.start();
    await collector.start();
    writeFileSync(join(caDir, 'ca.pem'), certificates.ca);
    running = await startDistributedStack({
      // The test receiver listens on 127.0.0.1 with a certificate of our own CA: trusted the
      // supported way, never by turning TLS verification off.
      env: {
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem'),
        WEBHOOK_RETRY_SCHEDULE: '1s,2s,4s',
        APPROVAL_SWEEP_INTERVAL_MS: '1000',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    });
    eventTopics = await readEventTopics((running.env.KAFKA_BROKERS ?? '').split(','));
  }, 120_000);

  afterAll(async () => {
    await eventTopics?.stop();
    await running?.stop();
    await receiver.close();
    await collector.close();
    rmSync(caDir, { recursive: true, force: true });
  }, 60_000);

  const stack = () => ({ baseUrl: running.stack.gatewayUrl, adminToken: running.secrets.ADMIN_TOKEN ?? '' });
  foundationBehaviour(stack);
  transfersBehaviour(stack);
  agentsBehaviour(stack);
  securityBehaviour(stack);
  approvalsBehaviour(stack, { expiry: true });
  agentTransactionsBehaviour(stack);
  webhooksBehaviour(stack, () => receiver);
  eventsBehaviour(stack);
  tracingBehaviour(stack, () => collector);
  metricsBehaviour(
    stack,
    () => running.stack.processes.find((p) => p.app === 'gateway')?.healthUrl ?? '',
    () => running.stack.processes.find((p) => p.app === 'transfer-service')?.healthUrl ?? '',
  );
  // After tracing, so that its ≈ 1,000 requests' spans are not still being exported during it.
  malformedInputBehaviour(stack);

  it("resolves a transfer's recipient over the direct query path, not through account-service's command topic", async () => {
    const sender = await account(stack());
    const recipient = await account(stack());
    await fund(stack(), sender, '1');
    const sent = await http(stack().baseUrl, 'POST', '/v1/transfers', {
      token: sender.token,
      body: { to: recipient.account.handle, amount: '0.25' },
    });
    expect(sent.status).toBe(200);
    // Every command of the run, as the broker holds them: the transfer's own command is on Kafka
    // (commands stay there), the read it made to resolve the recipient is not.
    const kafka = new Kafka({
      clientId: 'e2e-query-path',
      brokers: (running.env.KAFKA_BROKERS ?? '').split(','),
      logLevel: logLevel.NOTHING,
    });
    const consumer = kafka.consumer({ groupId: `e2e-query-path-${Date.now()}` });
    const seen: { topic: string; type: string }[] = [];
    await consumer.connect();
    await consumer.subscribe({ topics: ['transfer.commands', 'account.commands'], fromBeginning: true });
    await consumer.run({
      eachMessage: ({ topic, message }) => {
        const value = message.value?.toString() ?? '';
        if (value.includes(recipient.account.handle)) {
          seen.push({ topic, type: (JSON.parse(value) as { type: string }).type });
        }
        return Promise.resolve();
      },
    });
    try {
      await eventually(
        () => expect(seen).toContainEqual({ topic: 'transfer.commands', type: 'transfer.create' }),
        30_000,
        250,
      );
    } finally {
      await consumer.disconnect();
    }
    expect(seen.filter((s) => s.type === 'account.resolve-recipient')).toEqual([]);
  }, 90_000);

  it("refuses a stranger's query on a service's internal port and a posted reply on the gateway's (401 without INTERNAL_TOKEN), while the apps' own traffic carries it", async () => {
    const alice = await account(stack());
    const internalPort = (app: string) => running.stack.processes.find((p) => p.app === app)?.healthUrl ?? '';
    const query = createEnvelope(
      'account.get',
      1,
      { account_id: alice.account.account_id, environment: 'test' },
      { correlationId: 'req_e2e_internal_token', environment: 'test', accountId: alice.account.account_id },
    );
    const post = (url: string, body: unknown, authorization?: string) =>
      fetch(url, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      });
    const queries = `${internalPort('account-service')}/internal/v1/queries`;
    const token = running.secrets.INTERNAL_TOKEN ?? '';
    expect(token.length).toBeGreaterThanOrEqual(32);

    expect((await post(queries, query)).status).toBe(401);
    const another = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;
    expect((await post(queries, query, `Bearer ${another}`)).status).toBe(401);
    expect((await post(`${internalPort('gateway')}/internal/v1/replies`, { id: 'req_forged' })).status).toBe(
      401,
    );
    // The same envelope with the deployment's token is answered: only strangers are refused.
    const answered = await post(queries, query, `Bearer ${token}`);
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain(alice.account.account_id);
    // The API reads through that path with the token (the test above: no read on Kafka).
    const me = await http(stack().baseUrl, 'GET', '/v1/accounts/me', { token: alice.token });
    expect(me.status).toBe(200);
  });

  // Before the dead-letter test below, which publishes an invalid event on purpose.
  it('publishes every event of the run as docs/events.md and the JSON Schemas in docs/schemas say: schema, topic, key', async () => {
    await eventTopics?.stop();
    const ours = (eventTopics?.messages ?? []).filter(
      (m) => (JSON.parse(m.value) as { occurred_at: string }).occurred_at >= startedAt,
    );
    const types = new Set(ours.map((m) => (JSON.parse(m.value) as { type: string }).type));
    expect([...types].sort()).toEqual(expect.arrayContaining(RAISED_BY_THIS_SUITE));
    expect(eventContractViolations(ours)).toEqual([]);
  });

  it('dead-letters an invalid event to the dead-letter topic of its consumer (<service>.dlq) with the reason, never silently', async () => {
    const kafka = new Kafka({
      clientId: 'e2e-dlq',
      brokers: (running.env.KAFKA_BROKERS ?? '').split(','),
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const bogus = createEnvelope(
      'transfer.confirmed',
      1,
      { transfer_id: 'tr_bogus', status: 'no-such-status' },
      {
        correlationId: 'req_dlq',
        environment: 'test',
        accountId: null,
      },
    );
    await producer.send({
      topic: 'transfer.events',
      messages: [{ key: 'tr_bogus', value: JSON.stringify(bogus) }],
    });
    await producer.disconnect();
    const consumer = kafka.consumer({ groupId: `e2e-dlq-${Date.now()}` });
    const letters: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: 'webhook-dispatcher.dlq', fromBeginning: true });
    await consumer.run({
      eachMessage: ({ message }) => Promise.resolve(void letters.push(message.value?.toString() ?? '')),
    });
    try {
      await eventually(
        () => expect(letters.some((letter) => letter.includes(bogus.id))).toBe(true),
        30_000,
        250,
      );
    } finally {
      await consumer.disconnect();
    }
    const letter = JSON.parse(letters.find((l) => l.includes(bogus.id)) ?? '{}') as {
      consumer: string;
      reason: string;
    };
    expect(letter).toMatchObject({
      consumer: 'webhook-dispatcher',
      reason: expect.stringContaining('status') as unknown,
    });
  }, 60_000);

  it('lets a service restarted after SIGTERM answer at once, without waiting out its old Kafka session', async () => {
    const index = running.stack.processes.findIndex((p) => p.app === 'account-service');
    expect(await running.stack.processes[index]?.stop()).toBe(0);
    running.stack.processes[index] = await startAppProcess('account-service', running.env, {
      onOutput: (app, line) => running.output.push(`[${app}] ${line}`),
    });
    // The default session timeout is 30 s and a command waits at most 15 s: this answers only if the
    // old member left the group on SIGTERM.
    const created = await http(running.stack.gatewayUrl, 'POST', '/admin/v1/accounts', {
      token: running.secrets.ADMIN_TOKEN,
      body: { handle: uniqueHandle('restart'), type: 'personal' },
    });
    expect(created.status).toBe(201);
  }, 60_000);

  it('stops every app cleanly on SIGTERM', async () => {
    const service = running.stack.processes.find((p) => p.app === 'webhook-dispatcher');
    expect(await service?.stop()).toBe(0);
  });
});
