import { createDecryptionProof, decryptAmount } from '@cts/sdk';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { type DistributedStack, startDistributedStack } from './support/distributed-stack';
import { http, type HttpResponse, uniqueHandle } from './support/http';

// A distinctive amount: its decimal and base-unit spellings must appear nowhere but client-side.
const AMOUNT = '1234.567891';
const NEEDLES = ['1234.567891', '1234567891'];

// Alice's balance after the transfer: only the client (which proved it) may hold it in plaintext.
const BALANCE = '3765.432109';
const BALANCE_NEEDLES = ['3765.432109', '3765432109'];

const found = (haystack: string, needles = NEEDLES) => needles.filter((needle) => haystack.includes(needle));

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

async function allRows(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_schema IN ('accounts', 'transfers', 'agents', 'approvals', 'webhooks') AND table_type = 'BASE TABLE'`,
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

describe('confidentiality: a transfer amount appears in plaintext nowhere the service can see', () => {
  let running: DistributedStack;
  const responses: HttpResponse[] = [];

  beforeAll(async () => {
    // Reads and replies over Kafka (no direct query path, no direct replies), so every command and
    // reply crosses the scanned topics.
    running = await startDistributedStack({
      env: { LOG_LEVEL: 'debug', SERVICE_QUERY_URLS: '', REPLY_HOST: '' },
    });
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
  }, 60_000);

  it('leaves no trace of the amount in responses, Kafka messages, table rows or logs', async () => {
    const baseUrl = running.stack.gatewayUrl;
    const adminToken = running.secrets.ADMIN_TOKEN ?? '';
    const call = async (method: string, path: string, options: Parameters<typeof http>[3] = {}) => {
      const response = await http(baseUrl, method, path, options);
      responses.push(response);
      return response;
    };
    const create = async () =>
      (
        await call('POST', '/admin/v1/accounts', {
          token: adminToken,
          body: { handle: uniqueHandle('conf'), type: 'personal', kyc_status: 'verified' },
        })
      ).body as {
        decryption_key: string;
        account: { handle: string };
        api_keys: { test: { secret: string } };
      };
    const [alice, bob] = [await create(), await create()];
    const token = alice.api_keys.test.secret;
    expect(
      (await call('POST', '/v1/sandbox/fund', { token, body: { asset: 'USDC', amount: '5000' } })).status,
    ).toBe(200);
    const sent = await call('POST', '/v1/transfers', {
      token,
      body: { to: bob.account.handle, amount: AMOUNT, memo: 'invoice 7' },
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
    // As the SDK sends it: in the X-Decryption-Proof header (proxies log URLs).
    const proven = await http(baseUrl, 'GET', '/v1/accounts/me/balances', {
      token,
      headers: { 'x-decryption-proof': proof },
    });
    expect(proven.body).toMatchObject({
      balances: expect.arrayContaining([{ asset: 'USDC', has_balance: true, amount: BALANCE }]) as unknown,
    });

    const kafka = await allKafkaMessages((running.env.KAFKA_BROKERS ?? '').split(','));
    const rows = await allRows(running.db.url);
    expect(kafka.some((message) => message.includes(transfer.transfer_id))).toBe(true);
    expect(rows.some((row) => row.includes(transfer.transfer_id))).toBe(true);
    expect(running.output.length).toBeGreaterThan(0);

    const leaks = [
      ...responses.map((r) => ['response', JSON.stringify(r.body)] as const),
      ...kafka.map((m) => ['kafka', m] as const),
      ...rows.map((r) => ['row', r] as const),
      ...running.output.map((line) => ['log', line] as const),
    ].filter(([, text]) => found(text).length > 0);
    expect(leaks).toEqual([]);

    // The proof names the amount, and the reply carries it: neither in the clear on any topic.
    expect(kafka.some((message) => message.includes('transfer.balances'))).toBe(true);
    const balanceLeaks = [
      ...kafka.map((m) => ['kafka', m] as const),
      ...rows.map((r) => ['row', r] as const),
      ...running.output.map((line) => ['log', line] as const),
    ].filter(([, text]) => found(text, [...BALANCE_NEEDLES, proof]).length > 0);
    expect(balanceLeaks).toEqual([]);
  }, 120_000);
});
