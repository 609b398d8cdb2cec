import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ApiTestServer, startApiTestServer } from '../../testing/api-test-server';
import { CtsApiError } from './cts-api-error';
import { CtsClient } from './cts-client';

const API_KEY = 'svc_test_0123456789abcdefghijklmnopqrstuvwxyzABCD';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: ApiTestServer;
let client: CtsClient;

beforeAll(async () => {
  server = await startApiTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  client = new CtsClient({ baseUrl: server.baseUrl, apiKey: API_KEY, retryDelayMs: 1, timeoutMs: 2000 });
});

const policy = { daily_limit_usdc: 100, per_transaction_limit_usdc: 10 };
const endpoints: [string, (c: CtsClient) => Promise<unknown>, string, string, unknown][] = [
  ['me', (c) => c.me(), 'GET', '/v1/accounts/me', undefined],
  ['balances', (c) => c.balances(), 'GET', '/v1/accounts/me/balances', undefined],
  ['agents', (c) => c.agents(), 'GET', '/v1/accounts/me/agents', undefined],
  [
    'createAgent',
    (c) => c.createAgent({ name: 'buyer', spend_policy: policy }),
    'POST',
    '/v1/accounts/me/agents',
    { name: 'buyer', spend_policy: policy },
  ],
  [
    'agentApiKey',
    (c) => c.agentApiKey('acct_1', { name: 'k', environment: 'test' }),
    'POST',
    '/v1/agents/acct_1/api-keys',
    { name: 'k', environment: 'test' },
  ],
  ['agentApiKeys', (c) => c.agentApiKeys('acct_1'), 'GET', '/v1/agents/acct_1/api-keys', undefined],
  [
    'revokeAgentApiKey',
    (c) => c.revokeAgentApiKey('acct_1', 'key_1'),
    'DELETE',
    '/v1/agents/acct_1/api-keys/key_1',
    undefined,
  ],
  ['spendPolicy', (c) => c.spendPolicy('acct_1'), 'GET', '/v1/agents/acct_1/spend-policy', undefined],
  [
    'updateSpendPolicy',
    (c) => c.updateSpendPolicy('acct_1', { hitl_threshold_usdc: 5 }),
    'PATCH',
    '/v1/agents/acct_1/spend-policy',
    { hitl_threshold_usdc: 5 },
  ],
  [
    'pendingTransactions',
    (c) => c.pendingTransactions(),
    'GET',
    '/v1/agents/transactions/pending',
    undefined,
  ],
  ['ownSpendPolicy', (c) => c.ownSpendPolicy(), 'GET', '/v1/accounts/me/spend-policy', undefined],
  ['agentTransaction', (c) => c.agentTransaction('atx_1'), 'GET', '/v1/agents/transactions/atx_1', undefined],
  [
    'agentTransactions',
    (c) => c.agentTransactions('acct_1'),
    'GET',
    '/v1/agents/acct_1/transactions',
    undefined,
  ],
  ['approve', (c) => c.approve('atx_1'), 'POST', '/v1/agents/transactions/atx_1/approve', undefined],
  ['reject', (c) => c.reject('atx_1'), 'POST', '/v1/agents/transactions/atx_1/reject', undefined],
  [
    'createTransfer',
    (c) => c.createTransfer({ to: '@bob', amount: '1.5' }),
    'POST',
    '/v1/transfers',
    { to: '@bob', amount: '1.5' },
  ],
  ['transfer', (c) => c.transfer('tr_1'), 'GET', '/v1/transfers/tr_1', undefined],
  ['transfers', (c) => c.transfers(), 'GET', '/v1/transfers', undefined],
  ['apiKeys', (c) => c.apiKeys(), 'GET', '/v1/api-keys', undefined],
  ['createApiKey', (c) => c.createApiKey({ name: 'ci' }), 'POST', '/v1/api-keys', { name: 'ci' }],
  ['revokeApiKey', (c) => c.revokeApiKey('key_1'), 'DELETE', '/v1/api-keys/key_1', undefined],
  [
    'fund',
    (c) => c.fund({ asset: 'USDC', amount: '25' }),
    'POST',
    '/v1/sandbox/fund',
    { asset: 'USDC', amount: '25' },
  ],
  [
    'createWebhook',
    (c) => c.createWebhook({ url: 'https://example.com/hook', events: ['transfer.confirmed'] }),
    'POST',
    '/v1/webhooks',
    { url: 'https://example.com/hook', events: ['transfer.confirmed'] },
  ],
  ['webhooks', (c) => c.webhooks(), 'GET', '/v1/webhooks', undefined],
  ['deleteWebhook', (c) => c.deleteWebhook('wh_1'), 'DELETE', '/v1/webhooks/wh_1', undefined],
  ['replay', (c) => c.replay('wh_1', 'evt_2'), 'POST', '/v1/webhooks/wh_1/replay/evt_2', undefined],
  ['deliveries', (c) => c.deliveries('wh_1'), 'GET', '/v1/webhooks/wh_1/deliveries', undefined],
  ['webhook', (c) => c.webhook('wh_1'), 'GET', '/v1/webhooks/wh_1', undefined],
  [
    'updateWebhook',
    (c) => c.updateWebhook('wh_1', { disabled: true }),
    'PATCH',
    '/v1/webhooks/wh_1',
    { disabled: true },
  ],
  [
    'rotateWebhookSecret',
    (c) => c.rotateWebhookSecret('wh_1'),
    'POST',
    '/v1/webhooks/wh_1/rotate-secret',
    undefined,
  ],
  ['testWebhook', (c) => c.testWebhook('wh_1'), 'POST', '/v1/webhooks/wh_1/test', undefined],
  ['events', (c) => c.events(), 'GET', '/v1/events', undefined],
  [
    'events with filters',
    (c) =>
      c.events({
        limit: 5,
        startingAfter: 'evt_9',
        types: ['transfer.confirmed', 'webhook.test'],
        createdAfter: new Date('2026-01-01T00:00:00.000Z'),
      }),
    'GET',
    '/v1/events?limit=5&starting_after=evt_9&type=transfer.confirmed&type=webhook.test&created_after=2026-01-01T00%3A00%3A00.000Z',
    undefined,
  ],
  ['event', (c) => c.event('evt_1'), 'GET', '/v1/events/evt_1', undefined],
];

// The admin API is the operator's (cts accounts, kyc, keys, domains), not a client's; x402 has its own module.
const NOT_CLIENT_METHODS = new Map([
  ['POST /v1/agents/x402/payments', 'payX402 / x402Fetch (../x402)'],
  ['POST /v1/agents/x402/payments/{payment_id}/settlement', 'x402Fetch reports the settlement (../x402)'],
]);
const openApi = JSON.parse(readFileSync(join(__dirname, '../../../../docs/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};

describe('CtsClient coverage of docs/openapi.json', () => {
  const routeOf = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?.*)?$`);
  const operations = Object.entries(openApi.paths)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    .filter((operation) => !NOT_CLIENT_METHODS.has(operation));

  it.each(operations)('has a method for %s', (operation) => {
    const [method, template] = operation.split(' ');
    const route = routeOf(template);
    const covering = endpoints.filter(([, , m, path]) => m === method && route.test(path));
    expect(covering.map(([name]) => name)).not.toEqual([]);
  });

  it('tests every method of the client against its route', () => {
    const methods = Object.getOwnPropertyNames(CtsClient.prototype).filter(
      (name) => !['constructor', 'request', 'body', 'allEvents'].includes(name),
    );
    const tested = new Set(endpoints.map(([name]) => name));
    expect(methods.filter((name) => !tested.has(name))).toEqual([]);
  });
});

describe('CtsClient endpoints', () => {
  it.each(endpoints)('%s sends %s %s with the bearer key', async (_name, call, method, path, body) => {
    await call(client);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(`${request.method} ${request.url}`).toBe(`${method} ${path}`);
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers.accept).toBe('application/json');
    if (body === undefined) {
      expect(request.body).toBe('');
      expect(request.headers['content-type']).toBeUndefined();
    } else {
      expect(JSON.parse(request.body)).toEqual(body);
      expect(request.headers['content-type']).toBe('application/json');
    }
    const keyed = method === 'POST' || method === 'PATCH';
    expect(request.headers['idempotency-key']).toEqual(keyed ? expect.stringMatching(UUID) : undefined);
  });

  it('returns the parsed response body', async () => {
    const account = { account_id: 'acct_1', handle: '@alice', type: 'personal', kyc_status: 'verified' };
    server.reply({ status: 200, body: account });
    await expect(client.me()).resolves.toEqual(account);
  });

  it('walks every page of events with starting_after until has_more is false', async () => {
    const event = (id: string) => ({
      event_id: id,
      event: 'transfer.confirmed',
      account: '@a',
      timestamp: 't',
      created_at: 't',
    });
    server.reply(
      { status: 200, body: { events: [event('evt_3'), event('evt_2')], has_more: true } },
      { status: 200, body: { events: [event('evt_1')], has_more: false } },
    );
    const seen: string[] = [];
    for await (const e of client.allEvents({ limit: 2, types: ['transfer.confirmed'] })) {
      seen.push(e.event_id);
    }
    expect(seen).toEqual(['evt_3', 'evt_2', 'evt_1']);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/events?limit=2&type=transfer.confirmed',
      '/v1/events?limit=2&starting_after=evt_2&type=transfer.confirmed',
    ]);
  });

  it('encodes path parameters', async () => {
    await client.transfer('tr_a/b c?d');
    await client.replay('wh/1', 'evt#2');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/transfers/tr_a%2Fb%20c%3Fd',
      '/v1/webhooks/wh%2F1/replay/evt%232',
    ]);
  });

  it('keeps a path prefix of the base URL and ignores its trailing slash', async () => {
    const prefixed = new CtsClient({ baseUrl: `${server.baseUrl}/api/`, apiKey: API_KEY });
    await prefixed.me();
    expect(server.requests[0].url).toBe('/api/v1/accounts/me');
  });

  it('sends the balance proof in the X-Decryption-Proof header, byte for byte, never in the URL', async () => {
    const proof = 'eyJ2IjoxfQ+/abc==';
    await client.balances({ include: 'ciphertext', decryptionProof: proof });
    const url = new URL(server.requests[0].url, server.baseUrl);
    expect(url.pathname).toBe('/v1/accounts/me/balances');
    expect(url.searchParams.get('include')).toBe('ciphertext');
    expect(url.searchParams.has('decryption_proof')).toBe(false);
    expect(server.requests[0].url).not.toContain('eyJ2');
    expect(server.requests[0].headers['x-decryption-proof']).toBe(proof);
  });

  it('encodes transfer list filters and leaves out the unset ones', async () => {
    await client.transfers({
      limit: 5,
      offset: 10,
      status: 'confirmed',
      from: new Date(Date.UTC(2025, 0, 2)),
    });
    await client.transfers({ to: '2025-02-01T00:00:00.000Z' });
    expect(server.requests[0].url).toBe(
      '/v1/transfers?limit=5&offset=10&status=confirmed&from=2025-01-02T00%3A00%3A00.000Z',
    );
    expect(server.requests[1].url).toBe('/v1/transfers?to=2025-02-01T00%3A00%3A00.000Z');
  });

  it("encodes an agent's transaction list filters and leaves out the unset ones", async () => {
    await client.agentTransactions('acct_1', { limit: 2, starting_after: 'atx_9', status: 'approved' });
    await client.agentTransactions('acct_1', { status: 'pending_approval' });
    expect(server.requests[0].url).toBe(
      '/v1/agents/acct_1/transactions?limit=2&starting_after=atx_9&status=approved',
    );
    expect(server.requests[1].url).toBe('/v1/agents/acct_1/transactions?status=pending_approval');
  });

  it('resolves DELETE with 204 No Content to undefined', async () => {
    server.reply({ status: 204 }, { status: 204 }, { status: 204 });
    await expect(client.revokeApiKey('key_1')).resolves.toBeUndefined();
    await expect(client.deleteWebhook('wh_1')).resolves.toBeUndefined();
    await expect(client.revokeAgentApiKey('acct_1', 'key_1')).resolves.toBeUndefined();
  });
});

describe('CtsClient.createTransfer', () => {
  const transfer = {
    transfer_id: 'tr_1',
    status: 'confirmed',
    to: '@bob',
    confidential: true,
    chain_signature: 'sig',
    created_at: '2025-01-01T00:00:00.000Z',
    asset: 'USDC',
  };
  const held = {
    transaction_id: 'atx_1',
    status: 'pending_approval',
    agent: '@alice/buyer',
    to: '@bob',
    requested_at: '2025-01-01T00:00:00.000Z',
    expires_at: '2025-01-01T01:00:00.000Z',
  };

  it('returns a transfer with its HTTP status', async () => {
    server.reply({ status: 201, body: transfer });
    await expect(client.createTransfer({ to: '@bob', amount: '1' })).resolves.toEqual({
      kind: 'transfer',
      httpStatus: 201,
      transfer,
    });
  });

  it('returns a held agent transaction for 202, not a transfer', async () => {
    server.reply({ status: 202, body: held });
    await expect(client.createTransfer({ to: '@bob', amount: '500' })).resolves.toEqual({
      kind: 'pending_approval',
      httpStatus: 202,
      transaction: held,
    });
  });

  it('sends the caller-chosen Idempotency-Key as given', async () => {
    await client.createTransfer({ to: '@bob', amount: '1' }, { idempotencyKey: 'order-42' });
    expect(server.requests[0].headers['idempotency-key']).toBe('order-42');
  });

  it('generates a different Idempotency-Key for each call', async () => {
    await client.createTransfer({ to: '@bob', amount: '1' });
    await client.createTransfer({ to: '@bob', amount: '1' });
    const [first, second] = server.requests.map((r) => r.headers['idempotency-key']);
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
  });
});

describe('CtsClient errors', () => {
  async function failure(call: Promise<unknown>): Promise<CtsApiError> {
    const error: unknown = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CtsApiError);
    return error as CtsApiError;
  }

  it('parses the error body into status, code, message, request id, param and reason', async () => {
    server.reply({
      status: 403,
      headers: { 'X-Request-Id': 'req_header' },
      body: {
        error: {
          code: 'policy_violation',
          message: 'Above the per-transaction limit',
          request_id: 'req_body',
          param: 'amount',
          reason: 'per_transaction_limit_exceeded',
        },
      },
    });
    const error = await failure(client.createTransfer({ to: '@bob', amount: '99' }));
    expect(error).toBeInstanceOf(Error);
    expect({ ...error, message: error.message }).toMatchObject({
      name: 'CtsApiError',
      status: 403,
      code: 'policy_violation',
      message: 'Above the per-transaction limit',
      requestId: 'req_body',
      param: 'amount',
      reason: 'per_transaction_limit_exceeded',
    });
  });

  it('takes the request id from X-Request-Id when the body has none', async () => {
    server.reply({
      status: 404,
      headers: { 'X-Request-Id': 'req_7' },
      body: { error: { code: 'not_found', message: 'x' } },
    });
    const error = await failure(client.transfer('tr_missing'));
    expect([error.code, error.requestId, error.param, error.reason]).toEqual([
      'not_found',
      'req_7',
      undefined,
      undefined,
    ]);
  });

  it('still throws a CtsApiError for a body that is not the error shape', async () => {
    server.reply({ status: 502, headers: { 'X-Request-Id': 'req_9' }, raw: '<html>Bad gateway</html>' });
    const error = await failure(
      new CtsClient({ baseUrl: server.baseUrl, apiKey: API_KEY, maxRetries: 0 }).me(),
    );
    expect([error.status, error.code, error.requestId]).toEqual([502, 'http_502', 'req_9']);
  });

  it('refuses a 2xx body that is not JSON', async () => {
    server.reply({ status: 200, raw: 'not json' });
    const error = await failure(client.me());
    expect(error.code).toBe('invalid_response');
  });

  it('never puts the API key into an error', async () => {
    server.reply({
      status: 401,
      body: { error: { code: 'unauthorized', message: 'Invalid API key', request_id: 'r' } },
    });
    const error = await failure(client.me());
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(API_KEY);
  });
});

describe('CtsClient.request', () => {
  it('exposes status, request id and the Idempotency-Key sent', async () => {
    server.reply({ status: 201, headers: { 'X-Request-Id': 'req_3' }, body: { ok: true } });
    const response = await client.request<{ ok: boolean }>({
      method: 'POST',
      path: '/v1/things',
      body: {},
      idempotencyKey: 'k-1',
    });
    expect(response).toEqual({
      status: 201,
      body: { ok: true },
      requestId: 'req_3',
      idempotencyKey: 'k-1',
      replayed: false,
    });
  });

  it("says when the answer is the gateway's replay of an earlier request with the same key", async () => {
    server.reply({ status: 201, headers: { 'Idempotent-Replayed': 'true' }, body: { ok: true } });
    const response = await client.request({ method: 'POST', path: '/v1/things', idempotencyKey: 'k-1' });
    expect(response).toMatchObject({ status: 201, replayed: true });
  });
});
