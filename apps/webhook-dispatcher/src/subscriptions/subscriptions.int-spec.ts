import {
  CreateWebhook,
  DeleteWebhook,
  type Environment,
  ListWebhooks,
  type MessageContext,
} from '@cts/contracts';
import { type CommandBus } from '@cts/messaging';
import { type RunningApp } from '@cts/runtime';
import { deriveElGamalPubkey, encodeBase64, generateElGamalSecret } from '@cts/crypto';
import { pendingSchemaChanges } from '@cts/persistence';
import {
  createTestDatabase,
  inProcessCommandBus,
  inProcessTestRuntime,
  type TestDatabase,
} from '@cts/testing';
import { type LookupAddress } from 'node:dns';
import { DataSource } from 'typeorm';
import { createWebhook } from '../testing/dispatcher-harness';
import { start } from '../webhook-dispatcher';

const context: MessageContext = { correlationId: 'req_test', environment: 'test', accountId: 'acct_alice' };

// A resolver we control: public names, a name that resolves to a private address, and one that fails.
const DNS: Record<string, LookupAddress[]> = {
  'hooks.example.com': [{ address: '93.184.215.14', family: 4 }],
  'v6.example.com': [{ address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }],
  'intranet.example.com': [{ address: '10.1.2.3', family: 4 }],
  'mixed.example.com': [
    { address: '93.184.215.14', family: 4 },
    { address: '::ffff:192.168.0.1', family: 6 },
  ],
  'metadata.example.com': [{ address: '169.254.169.254', family: 4 }],
};
const resolve = (host: string) => {
  const found = DNS[host];
  return found
    ? Promise.resolve(found)
    : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
};

describe('webhook subscriptions on a real PostgreSQL (private networks refused)', () => {
  let db: TestDatabase;
  let service: RunningApp;
  let bus: CommandBus;

  beforeAll(async () => {
    db = await createTestDatabase();
    const runtime = inProcessTestRuntime(db.url, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
    service = await start(runtime, { resolve });
    bus = inProcessCommandBus(runtime.bus);
  });

  afterAll(async () => {
    await service.close();
    await db.drop();
  });

  const create = (
    url: string,
    events: string[] = ['transfer.confirmed'],
    scope: { account_id: string; environment: Environment } = {
      account_id: 'acct_alice',
      environment: 'test',
    },
  ) => createWebhook(bus, { ...scope, url, events });

  it('has migrations that match its entities (no schema drift)', async () => {
    expect(await pendingSchemaChanges(service.app.get(DataSource))).toEqual([]);
  });

  it('creates a subscription and shows its whsec_ secret in the create reply only', async () => {
    const created = await create('https://hooks.example.com/cts', [
      'transfer.confirmed',
      'agent.policy.updated',
      'transfer.confirmed',
    ]);

    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.value).toEqual({
      webhook_id: expect.stringMatching(/^wh_[0-9a-z]{26}$/),
      url: 'https://hooks.example.com/cts',
      events: ['transfer.confirmed', 'agent.policy.updated'],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      disabled: false,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      previous_secret_expires_at: null,
    });
    expect(Buffer.from(created.value.secret.slice(6), 'base64')).toHaveLength(32);
    const listed = await bus.send(ListWebhooks, { account_id: 'acct_alice', environment: 'test' }, context);
    const { secret: _secret, ...withoutSecret } = created.value;
    expect(listed).toEqual({ ok: true, value: { webhooks: [withoutSecret] } });
  });

  it('sends the secret back only encrypted to the one-time key of the request', async () => {
    const oneTimeSecret = generateElGamalSecret();
    const reply = await bus.send(
      CreateWebhook,
      {
        account_id: 'acct_alice',
        environment: 'test',
        url: 'https://hooks.example.com/enc',
        events: ['transfer.failed'],
        recipient_key: encodeBase64(deriveElGamalPubkey(oneTimeSecret)),
      },
      context,
    );
    expect(reply).toMatchObject({ ok: true, value: { encrypted_secret: expect.stringMatching(/^m1\./) } });
    expect(JSON.stringify(reply)).not.toContain('whsec_');
    // Too short, and 32 bytes that are no curve point.
    for (const recipient_key of ['AAAA', Buffer.alloc(32, 0xff).toString('base64')]) {
      const badKey = await bus.send(
        CreateWebhook,
        {
          account_id: 'acct_alice',
          environment: 'test',
          url: 'https://hooks.example.com/enc',
          events: ['transfer.failed'],
          recipient_key,
        },
        context,
      );
      expect(badKey).toMatchObject({ ok: false, error: { code: 'invalid_request', param: 'recipient_key' } });
    }
  });

  it('keeps the secret only sealed: it appears in no row of the schema', async () => {
    const created = await create('https://v6.example.com/hook');
    if (!created.ok) throw new Error('setup failed');
    const dataSource = service.app.get(DataSource);
    const tables = await dataSource.query<{ table_name: string }[]>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'webhooks'`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['subscriptions', 'inbox', 'outbox']),
    );
    const secretBytes = created.value.secret.slice(6);
    for (const { table_name } of tables) {
      const rows = await dataSource.query<unknown[]>(`SELECT * FROM "webhooks"."${table_name}"`);
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(secretBytes);
      expect(dump).not.toContain(Buffer.from(secretBytes, 'base64').toString('hex'));
    }
    const [row] = await dataSource.query<{ secret_sealed: string }[]>(
      `SELECT secret_sealed FROM "webhooks"."subscriptions" WHERE id = $1`,
      [created.value.webhook_id],
    );
    expect(row?.secret_sealed).toMatch(/^s1\./);
  });

  it.each([
    ['an http:// URL', 'http://hooks.example.com/cts', /https/],
    ['a URL with credentials', 'https://user:pass@hooks.example.com/', /credentials/],
    ['not a URL', 'hooks.example.com/cts', /absolute/],
    ['a private IPv4 literal', 'https://10.0.0.8/hook', /private/],
    ['a private IPv4 literal in another spelling', 'https://0xa000008/hook', /private/],
    ['a loopback IPv6 literal', 'https://[::1]:8443/hook', /loopback/],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', /loopback/],
    ['localhost', 'https://localhost:8443/hook', /loopback/],
    ['a subdomain of localhost', 'https://api.localhost/hook', /loopback/],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data', /metadata/],
    [
      'a host that resolves to a private address',
      'https://intranet.example.com/hook',
      /resolves to a private address/,
    ],
    ['a host with one private address among public ones', 'https://mixed.example.com/hook', /private/],
    ['a host that resolves to the metadata address', 'https://metadata.example.com/hook', /metadata/],
    ['a host that does not resolve', 'https://nowhere.example.com/hook', /does not resolve/],
  ])('refuses %s with 400 invalid_request on url', async (_case, url, message) => {
    const result = await create(url);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', param: 'url', message: expect.stringMatching(message) },
    });
  });

  it('never names the address a refused host resolved to (no oracle for internal DNS)', async () => {
    for (const url of ['https://intranet.example.com/hook', 'https://mixed.example.com/hook']) {
      const result = await create(url);
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).not.toMatch(/10\.1\.2\.3|192\.168\.0\.1/);
    }
    const metadata = await create('https://metadata.example.com/hook');
    expect(JSON.stringify(metadata)).not.toContain('169.254.169.254');
  });

  it('refuses an unknown event type, naming it', async () => {
    const result = await create('https://hooks.example.com/cts', ['transfer.confirmed', 'transfer.exploded']);
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_request',
        param: 'events.1',
        message: expect.stringContaining('transfer.exploded'),
      },
    });
    expect(await create('https://hooks.example.com/cts', [])).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', param: 'events' },
    });
  });

  it('scopes subscriptions to account and environment', async () => {
    const created = await create('https://hooks.example.com/bob', ['transfer.failed'], {
      account_id: 'acct_bob',
      environment: 'live',
    });
    if (!created.ok) throw new Error('setup failed');
    const list = (account_id: string, environment: 'live' | 'test') =>
      bus.send(ListWebhooks, { account_id, environment }, context);

    expect(await list('acct_bob', 'live')).toMatchObject({
      ok: true,
      value: { webhooks: [{ webhook_id: created.value.webhook_id }] },
    });
    expect(await list('acct_bob', 'test')).toEqual({ ok: true, value: { webhooks: [] } });
    const foreign = await bus.send(
      DeleteWebhook,
      { account_id: 'acct_alice', environment: 'live', webhook_id: created.value.webhook_id },
      context,
    );
    const otherEnvironment = await bus.send(
      DeleteWebhook,
      { account_id: 'acct_bob', environment: 'test', webhook_id: created.value.webhook_id },
      context,
    );
    expect(foreign).toMatchObject({ ok: false, error: { code: 'webhook_not_found' } });
    expect(otherEnvironment).toMatchObject({ ok: false, error: { code: 'webhook_not_found' } });
  });

  it('deletes a subscription: gone from the list, a second delete is webhook_not_found', async () => {
    const created = await create('https://hooks.example.com/gone', ['transfer.initiated'], {
      account_id: 'acct_carol',
      environment: 'test',
    });
    if (!created.ok) throw new Error('setup failed');
    const scope = {
      account_id: 'acct_carol',
      environment: 'test' as const,
      webhook_id: created.value.webhook_id,
    };

    expect(await bus.send(DeleteWebhook, scope, context)).toMatchObject({
      ok: true,
      value: { webhook_id: created.value.webhook_id },
    });
    expect(await bus.send(ListWebhooks, { account_id: 'acct_carol', environment: 'test' }, context)).toEqual({
      ok: true,
      value: { webhooks: [] },
    });
    expect(await bus.send(DeleteWebhook, scope, context)).toMatchObject({
      ok: false,
      error: { code: 'webhook_not_found' },
    });
    expect(await bus.send(DeleteWebhook, { ...scope, webhook_id: 'wh_unknown' }, context)).toMatchObject({
      ok: false,
      error: { code: 'webhook_not_found' },
    });
  });
});
