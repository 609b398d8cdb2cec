import { WEBHOOK_EVENT_TYPES } from '@cts/contracts';
import { createDecryptionProof, decryptAmount } from '@cts/sdk';
import { generateTestCertificates, HttpsReceiver } from '@cts/testing';
import { Redis } from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { type DistributedStack, startDistributedStack } from './support/distributed-stack';
import { http, type HttpResponse, uniqueHandle } from './support/http';

// A distinctive amount: its decimal and base-unit spellings must appear nowhere but client-side.
const AMOUNT = '1234.567891';
const NEEDLES = ['1234.567891', '1234567891'];

// Alice's balance after the transfer: only the client (which proved it) may hold it in plaintext.
const BALANCE = '3765.432109';
const BALANCE_NEEDLES = ['3765.432109', '3765432109'];

// An agent's payments held for its owner: one approved, one rejected, one left to expire.
const HELD = { approved: '17.654321', rejected: '18.765432', expired: '19.876543' };
// The agent's funding, a payment under the approval threshold, and amounts that are refused.
const OTHER = {
  funded: '500.135792',
  direct: '7.654329',
  overLimit: '150.987654',
  overBalance: '9999.876543',
  malformed: '1.2345678',
};
const HELD_NEEDLES = [...Object.values(HELD), ...Object.values(OTHER)].flatMap((amount) => [
  amount,
  amount.replace('.', ''),
]);
const MEMO = 'memo-zq7Kx3-confidential';

/**
 * The needles in `haystack`. An amount counts only as a number of its own (no digit, letter or dot
 * beside it), as a leak would print it: a 7-digit base-unit spelling also turns up by chance inside
 * a metric's float, a hex id or a signature. Other needles (secrets, the memo) count anywhere.
 */
const found = (haystack: string, needles: string[]) =>
  needles.filter((needle) =>
    /^[\d.]+$/.test(needle)
      ? new RegExp(`(?<![0-9A-Za-z.])${needle.replace('.', '\\.')}(?![0-9A-Za-z])`).test(haystack)
      : haystack.includes(needle),
  );

async function allKafkaMessages(brokers: string[]): Promise<string[]> {
  const kafka = new Kafka({ clientId: 'confidentiality-scan', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const topics = (await admin.listTopics()).filter((topic) => !topic.startsWith('__'));
  await admin.disconnect();
  const consumer = kafka.consumer({ groupId: `confidentiality-scan-${Date.now()}` });
  const messages: string[] = [];
  let lastMessageAt = Date.now();
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  await consumer.run({
    eachMessage: ({ topic, message }) => {
      lastMessageAt = Date.now();
      const headers = Object.entries(message.headers ?? {}).map(
        ([name, value]) => `${name}=${String(value)}`,
      );
      messages.push(
        `${topic} ${message.key?.toString() ?? ''} ${message.value?.toString() ?? ''} ${headers.join(' ')}`,
      );
      return Promise.resolve();
    },
  });
  while (Date.now() - lastMessageAt < 4000 || messages.length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await consumer.disconnect();
  return messages;
}

/** Every row of every table outside PostgreSQL's own schemas. */
async function allRows(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
    );
    const rows: string[] = [];
    for (const { schema, name } of tables.rows) {
      const result = await client.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM "${schema}"."${name}" t`,
      );
      rows.push(...result.rows.map((r) => `${schema}.${name} ${r.row}`));
    }
    return rows;
  } finally {
    await client.end();
  }
}

/** Every key of the Redis the stack uses, with its value whatever its type. */
async function allRedisEntries(url: string): Promise<string[]> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  try {
    const entries: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        const value =
          type === 'string'
            ? await redis.get(key)
            : type === 'hash'
              ? JSON.stringify(await redis.hgetall(key))
              : type === 'list'
                ? JSON.stringify(await redis.lrange(key, 0, -1))
                : type === 'set'
                  ? JSON.stringify(await redis.smembers(key))
                  : type === 'zset'
                    ? JSON.stringify(await redis.zrange(key, 0, -1, 'WITHSCORES'))
                    : type === 'stream'
                      ? JSON.stringify(await redis.xrange(key, '-', '+'))
                      : `(${type})`;
        entries.push(`${key} ${value ?? ''}`);
      }
    } while (cursor !== '0');
    return entries;
  } finally {
    redis.disconnect();
  }
}

describe('confidentiality: a transfer amount appears in plaintext nowhere the service can see', () => {
  let running: DistributedStack;
  const certificates = generateTestCertificates();
  const caDir = mkdtempSync(join(tmpdir(), 'cts-conf-ca-'));
  const receiver = new HttpsReceiver(certificates);
  /** Every response the tests got; none may carry a plaintext amount. */
  const responses: HttpResponse[] = [];
  /** Secrets that may be shown once, to their owner, and must then be nowhere the service keeps or says anything. */
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    await receiver.start();
    writeFileSync(join(caDir, 'ca.pem'), certificates.ca);
    // Reads and replies over Kafka (no direct query path, no direct replies), so every command and
    // reply crosses the scanned topics.
    running = await startDistributedStack({
      env: {
        LOG_LEVEL: 'debug',
        SERVICE_QUERY_URLS: '',
        REPLY_HOST: '',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem'),
        WEBHOOK_RETRY_SCHEDULE: '1s,2s,4s',
        APPROVAL_SWEEP_INTERVAL_MS: '500',
      },
    });
    for (const [name, value] of Object.entries(running.secrets)) {
      secrets.set(name, value);
    }
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    await receiver.close();
    rmSync(caDir, { recursive: true, force: true });
  }, 60_000);

  const call = async (method: string, path: string, options: Parameters<typeof http>[3] = {}) => {
    const response = await http(running.stack.gatewayUrl, method, path, options);
    responses.push(response);
    return response;
  };
  const createAccount = async () => {
    const created = (
      await call('POST', '/admin/v1/accounts', {
        token: running.secrets.ADMIN_TOKEN ?? '',
        body: { handle: uniqueHandle('conf'), type: 'personal', kyc_status: 'verified' },
      })
    ).body as {
      decryption_key: string;
      account: { account_id: string; handle: string };
      api_keys: { test: { secret: string }; live: { secret: string } };
    };
    const handle = created.account.handle;
    secrets.set(`${handle} decryption_key`, created.decryption_key);
    secrets.set(`${handle} test key`, created.api_keys.test.secret);
    secrets.set(`${handle} live key`, created.api_keys.live.secret);
    return created;
  };

  it('shows the amount of a transfer to its parties only as ciphertexts and a proven balance', async () => {
    const baseUrl = running.stack.gatewayUrl;
    const [alice, bob] = [await createAccount(), await createAccount()];
    const token = alice.api_keys.test.secret;
    expect(
      (await call('POST', '/v1/sandbox/fund', { token, body: { asset: 'USDC', amount: '5000' } })).status,
    ).toBe(200);
    const sent = await call('POST', '/v1/transfers', {
      token,
      body: { to: bob.account.handle, amount: AMOUNT, memo: MEMO },
      headers: { 'idempotency-key': 'conf-transfer-1' },
    });
    expect(sent.body).toMatchObject({ status: 'confirmed' });
    const transfer = sent.body as { transfer_id: string; encrypted_amount: string };
    expect(decryptAmount(alice.decryption_key, transfer.encrypted_amount, 'USDC')).toBe(AMOUNT);
    await call('GET', `/v1/transfers/${transfer.transfer_id}`, { token });
    await call('GET', '/v1/transfers', { token });
    await call('GET', '/v1/transfers', { token: bob.api_keys.test.secret });
    await call('GET', '/v1/api-keys', { token });
    const balances = await call('GET', '/v1/accounts/me/balances?include=ciphertext', { token });
    expect(balances.body).toMatchObject({
      balances: expect.arrayContaining([
        expect.objectContaining({ asset: 'USDC', has_balance: true }),
      ]) as unknown,
    });
    const usdc = (
      balances.body as { balances: { asset: string; ciphertext: string; decryptable_balance: string }[] }
    ).balances[0];
    const proof = createDecryptionProof(alice.decryption_key, [
      { asset: 'USDC', ciphertext: usdc?.ciphertext ?? '', decryptableBalance: usdc?.decryptable_balance },
    ]);
    secrets.set('decryption proof', proof);
    // As the SDK sends it: in the X-Decryption-Proof header (proxies log URLs).
    const proven = await http(baseUrl, 'GET', '/v1/accounts/me/balances', {
      token,
      headers: { 'x-decryption-proof': proof },
    });
    expect(proven.body).toMatchObject({
      balances: expect.arrayContaining([{ asset: 'USDC', has_balance: true, amount: BALANCE }]) as unknown,
    });
  }, 60_000);

  it("keeps an agent's held payments, their decisions and their webhooks free of amounts and secrets", async () => {
    const owner = await createAccount();
    const merchant = await createAccount();
    const token = owner.api_keys.test.secret;
    receiver.on('/conf-hook', (_request, index) =>
      index === 0 ? { status: 500, body: 'try again' } : { status: 200, body: 'ok' },
    );
    const hook = await call('POST', '/v1/webhooks', {
      token,
      body: { url: receiver.url('/conf-hook'), events: [...WEBHOOK_EVENT_TYPES] },
    });
    expect(hook.status).toBe(201);
    const { webhook_id: webhookId, secret: firstSecret } = hook.body as {
      webhook_id: string;
      secret: string;
    };
    secrets.set('webhook secret', firstSecret);
    const rotated = await call('POST', `/v1/webhooks/${webhookId}/rotate-secret`, { token });
    expect(rotated.status).toBe(200);
    secrets.set('rotated webhook secret', (rotated.body as { secret: string }).secret);

    const created = await call('POST', '/v1/accounts/me/agents', {
      token,
      body: {
        name: 'confbot',
        spend_policy: {
          daily_limit_usdc: 1000,
          per_transaction_limit_usdc: 100,
          hitl_threshold_usdc: 10,
          approval_window_minutes: 1,
        },
      },
    });
    expect(created.status).toBe(201);
    const agent = created.body as { account_id: string; decryption_key: string };
    secrets.set('agent decryption_key', agent.decryption_key);
    const key = await call('POST', `/v1/agents/${agent.account_id}/api-keys`, {
      token,
      body: { name: 'bot' },
    });
    const agentToken = (key.body as { secret: string }).secret;
    secrets.set('agent key', agentToken);
    expect(
      (
        await call('POST', '/v1/sandbox/fund', {
          token: agentToken,
          body: { asset: 'USDC', amount: OTHER.funded },
        })
      ).status,
    ).toBe(200);

    const held: Record<string, string> = {};
    for (const [outcome, amount] of Object.entries(HELD)) {
      const response = await call('POST', '/v1/transfers', {
        token: agentToken,
        body: { to: merchant.account.handle, amount, memo: MEMO },
        headers: { 'idempotency-key': `conf-held-${outcome}` },
      });
      expect(response.status).toBe(202);
      held[outcome] = (response.body as { transaction_id: string }).transaction_id;
    }
    const pending = await call('GET', '/v1/agents/transactions/pending', { token });
    const items = (pending.body as { pending: { transaction_id: string; encrypted_amount: string }[] })
      .pending;
    expect(items).toHaveLength(3);
    for (const item of items) {
      const outcome = Object.entries(held).find(([, id]) => id === item.transaction_id)?.[0] ?? '';
      expect(decryptAmount(owner.decryption_key, item.encrypted_amount, 'USDC')).toBe(
        HELD[outcome as keyof typeof HELD],
      );
    }
    await call('GET', `/v1/agents/transactions/${held.approved ?? ''}`, { token });
    await call('GET', `/v1/agents/transactions/${held.approved ?? ''}`, { token: agentToken });
    expect(
      (await call('POST', `/v1/agents/transactions/${held.approved ?? ''}/approve`, { token })).status,
    ).toBe(200);
    expect(
      (await call('POST', `/v1/agents/transactions/${held.rejected ?? ''}/reject`, { token })).status,
    ).toBe(200);
    // Expiry without waiting out the window: the sweeper expires what is overdue.
    const db = new Client({ connectionString: running.db.url });
    await db.connect();
    await db.query(
      `UPDATE approvals.agent_transactions SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [held.expired],
    );
    await db.end();
    const deadline = Date.now() + 10_000;
    let expired = '';
    while (expired !== 'expired' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const tx = await call('GET', `/v1/agents/transactions/${held.expired ?? ''}`, { token });
      expired = (tx.body as { status: string }).status;
    }
    expect(expired).toBe('expired');
    await call('GET', `/v1/agents/${agent.account_id}/transactions`, { token });
    await call('GET', `/v1/agents/${agent.account_id}/api-keys`, { token });
    await call('GET', '/v1/accounts/me/spend-policy', { token: agentToken });
    await call('GET', '/v1/transfers', { token: agentToken });
    await call('GET', '/v1/transfers', { token: merchant.api_keys.test.secret });
    await call('GET', '/v1/events', { token });
    await call('POST', `/v1/webhooks/${webhookId}/test`, { token });

    // Paid at once, and refused: by the policy, for the balance, as malformed.
    const direct = await call('POST', '/v1/transfers', {
      token: agentToken,
      body: { to: merchant.account.handle, amount: OTHER.direct },
    });
    expect(direct.body).toMatchObject({ status: 'confirmed' });
    const refusals = [
      await call('POST', '/v1/transfers', {
        token: agentToken,
        body: { to: merchant.account.handle, amount: OTHER.overLimit },
      }),
      await call('POST', '/v1/transfers', {
        token: merchant.api_keys.test.secret,
        body: { to: owner.account.handle, amount: OTHER.overBalance },
      }),
      await call('POST', '/v1/transfers', {
        token: merchant.api_keys.test.secret,
        body: { to: owner.account.handle, amount: OTHER.malformed },
      }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([403, 402, 400]);

    // Failed authentication: the presented secret must not reach any log.
    const wrongKey = `svc_test_${'Zx9q'.repeat(11).slice(0, 43)}`;
    secrets.set('wrong key', wrongKey);
    const wrongAdminToken = `adm_${'Qw3r'.repeat(8)}`;
    secrets.set('wrong admin token', wrongAdminToken);
    const refusedAuth = [
      await call('GET', '/v1/accounts/me', { token: wrongKey }),
      await call('GET', '/v1/accounts/me', { token: running.secrets.ADMIN_TOKEN ?? '' }),
      await call('POST', '/admin/v1/accounts', {
        token,
        body: { handle: uniqueHandle('conf'), type: 'personal' },
      }),
      await call('POST', '/admin/v1/accounts', {
        token: wrongAdminToken,
        body: { handle: uniqueHandle('conf'), type: 'personal' },
      }),
      await call('POST', '/v1/webhooks', {
        token: agentToken,
        body: { url: receiver.url('/x'), events: ['transfer.confirmed'] },
      }),
    ];
    expect(refusedAuth.map((r) => r.status)).toEqual([401, 401, 401, 401, 403]);
    const revoked = await call('POST', '/v1/api-keys', { token, body: { name: 'short-lived' } });
    const revokedKey = revoked.body as { key_id: string; secret: string };
    secrets.set('revoked key', revokedKey.secret);
    await call('DELETE', `/v1/api-keys/${revokedKey.key_id}`, { token });
    await call('GET', '/v1/accounts/me', { token: revokedKey.secret });

    // Deliveries: every event the owner gets, the first answered 500 and retried; the log lists them.
    let settled: HttpResponse | undefined;
    for (const until = Date.now() + 15_000; !settled && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const log = await http(running.stack.gatewayUrl, 'GET', `/v1/webhooks/${webhookId}/deliveries`, {
        token,
      });
      const deliveries = (log.body as { deliveries: { status: string }[] }).deliveries;
      settled = deliveries.length >= 8 && deliveries.every((d) => d.status === 'succeeded') ? log : undefined;
    }
    expect(settled).toBeDefined();
    responses.push(settled as HttpResponse);
    expect(receiver.received('/conf-hook').length).toBeGreaterThan(8);
  }, 90_000);

  it('leaves no trace of amounts or secrets in responses, Kafka messages, table rows, Redis or logs', async () => {
    const [kafka, rows, redis] = [
      await allKafkaMessages((running.env.KAFKA_BROKERS ?? '').split(',')),
      await allRows(running.db.url),
      await allRedisEntries(running.env.REDIS_URL ?? ''),
    ];
    expect(kafka.some((message) => message.includes('agent.transaction.approved'))).toBe(true);
    expect(rows.some((row) => row.startsWith('approvals.agent_transactions'))).toBe(true);
    expect(redis.some((entry) => entry.startsWith('cts:idem:'))).toBe(true);
    expect(running.output.length).toBeGreaterThan(0);
    const metrics = await Promise.all(
      running.stack.processes.map(
        async (p) => `${p.app} ${await (await fetch(`${p.healthUrl}/metrics`)).text()}`,
      ),
    );
    expect(metrics.every((text) => text.includes('# HELP'))).toBe(true);
    const webhookBodies = receiver.requests.map(
      (request) => `${request.path} ${JSON.stringify(request.headers)} ${request.body}`,
    );
    // The scanner itself: it finds an amount as a leak prints it, not a chance run of digits.
    expect(found('{"amount":"1234.567891"} units=1234567891', NEEDLES)).toEqual(NEEDLES);
    expect(found('cpu 0.1234567891 id a1234567891f 11234.5678912', NEEDLES)).toEqual([]);
    const amounts = [...NEEDLES, ...HELD_NEEDLES];
    const leaks = [
      ...responses.map((r) => ['response', JSON.stringify(r.body) ?? ''] as const),
      ...webhookBodies.map((w) => ['webhook', w] as const),
      ...kafka.map((m) => ['kafka', m] as const),
      ...rows.map((r) => ['row', r] as const),
      ...redis.map((r) => ['redis', r] as const),
      ...metrics.map((m) => ['metrics', m] as const),
      ...running.output.map((line) => ['log', line] as const),
    ].filter(([, text]) => found(text, amounts).length > 0);
    expect(leaks).toEqual([]);

    // The proof names the balance; the memo is sealed; secrets are shown once and kept nowhere.
    const kept = [
      ...webhookBodies.map((w) => ['webhook', w] as const),
      ...kafka.map((m) => ['kafka', m] as const),
      ...rows.map((r) => ['row', r] as const),
      ...redis.map((r) => ['redis', r] as const),
      ...metrics.map((m) => ['metrics', m] as const),
      ...running.output.map((line) => ['log', line] as const),
    ];
    const secretNeedles = [...BALANCE_NEEDLES, MEMO, ...secrets.values()];
    const secretLeaks = kept
      .map(([where, text]) => [where, found(text, secretNeedles), text.slice(0, 400)] as const)
      .filter(([, hits]) => hits.length > 0)
      .map(([where, hits, text]) => [
        where,
        hits.map((hit) => [...secrets].find(([, value]) => value === hit)?.[0] ?? hit),
        text,
      ]);
    expect(secretLeaks).toEqual([]);
  }, 60_000);
});
