import { type ApiTestServer, startApiTestServer } from '../../testing/api-test-server';
import { CtsApiError, CtsNetworkError } from './cts-api-error';
import { CtsClient, type CtsClientOptions } from './cts-client';

const API_KEY = 'svc_test_secretsecretsecretsecretsecret';

let server: ApiTestServer;

beforeAll(async () => {
  server = await startApiTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function clientWith(options: Partial<CtsClientOptions> = {}): CtsClient {
  return new CtsClient({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    retryDelayMs: 1,
    timeoutMs: 2000,
    ...options,
  });
}

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const unavailable = {
  status: 503,
  headers: { 'Retry-After': '0' },
  body: { error: { code: 'service_unavailable', message: 'Try again', request_id: 'req_1' } },
};
const transfer = { transfer_id: 'tr_1', status: 'confirmed', to: '@bob', confidential: true, asset: 'USDC' };

describe('retries', () => {
  it('retries a create after 503 with the same Idempotency-Key, so money moves once', async () => {
    server.reply(unavailable, unavailable, { status: 201, body: transfer });
    const result = await clientWith().createTransfer({ to: '@bob', amount: '12.5' });
    expect(result).toMatchObject({ kind: 'transfer', transfer: { transfer_id: 'tr_1' } });
    expect(server.requests).toHaveLength(3);
    const keys = new Set(server.requests.map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toEqual(expect.any(String));
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
  });

  it('retries after a dropped connection with the same Idempotency-Key', async () => {
    server.reply('destroy', { status: 201, body: transfer });
    await clientWith().createTransfer({ to: '@bob', amount: '1' }, { idempotencyKey: 'mine' });
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(['mine', 'mine']);
  });

  it.each([429, 502, 504])('retries %s', async (status) => {
    server.reply({ status, headers: { 'Retry-After': '0' } }, { status: 200, body: { balances: [] } });
    await expect(clientWith().balances()).resolves.toEqual({ balances: [] });
    expect(server.requests).toHaveLength(2);
  });

  it('retries GET as-is, with no Idempotency-Key', async () => {
    server.reply(unavailable, { status: 200, body: { api_keys: [] } });
    await clientWith().apiKeys();
    expect(server.requests.map((r) => [r.method, r.url, r.headers['idempotency-key']])).toEqual([
      ['GET', '/v1/api-keys', undefined],
      ['GET', '/v1/api-keys', undefined],
    ]);
  });

  it.each([400, 401, 402, 403, 404, 409, 422, 500])('does not retry %s', async (status) => {
    server.reply({ status, body: { error: { code: 'some_code', message: 'no', request_id: 'r' } } });
    const error = await rejection(clientWith().createTransfer({ to: '@bob', amount: '1' }));
    expect(error).toBeInstanceOf(CtsApiError);
    expect((error as CtsApiError).status).toBe(status);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxRetries and throws the last answer', async () => {
    server.reply(unavailable, unavailable, unavailable, unavailable);
    const error = await rejection(clientWith({ maxRetries: 2 }).me());
    expect(server.requests).toHaveLength(3);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', requestId: 'req_1' });
  });

  it('makes maxRetries + 1 attempts by default (3 retries)', async () => {
    server.reply(unavailable, unavailable, unavailable, unavailable, unavailable);
    await rejection(clientWith().me());
    expect(server.requests).toHaveLength(4);
  });

  it('waits as long as Retry-After says', async () => {
    server.reply({ status: 429, headers: { 'Retry-After': '1' } }, { status: 200, body: {} });
    const started = Date.now();
    await clientWith().me();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('throws the 429 at once when Retry-After asks for longer than maxRetryAfterMs (default 60 s)', async () => {
    const tooLong = {
      status: 429,
      headers: { 'Retry-After': '3600' },
      body: { error: { code: 'rate_limited', message: 'Later', request_id: 'req_2' } },
    };
    server.reply(tooLong, { status: 200, body: {} });
    const started = Date.now();
    const error = await rejection(clientWith().me());
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(CtsApiError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 3_600_000 });
    expect(server.requests).toHaveLength(1);
  });

  it('honours a smaller maxRetryAfterMs, and an HTTP date as Retry-After', async () => {
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    server.reply(
      { status: 503, headers: { 'Retry-After': '2' } },
      { status: 503, headers: { 'Retry-After': inTwoMinutes } },
    );
    await expect(rejection(clientWith({ maxRetryAfterMs: 1000 }).me())).resolves.toMatchObject({
      status: 503,
      retryAfterMs: 2000,
    });
    await expect(rejection(clientWith().me())).resolves.toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(2);
  });

  it('throws CtsNetworkError when the connection keeps failing, without the key or the query', async () => {
    server.reply('destroy', 'destroy');
    const error = await rejection(
      clientWith({ maxRetries: 1 }).balances({ decryptionProof: 'proof-naming-amounts' }),
    );
    expect(error).toBeInstanceOf(CtsNetworkError);
    expect(server.requests).toHaveLength(2);
    const { message } = error as CtsNetworkError;
    expect(message).toBe('GET /v1/accounts/me/balances got no response');
    expect(message).not.toContain(API_KEY);
    expect((error as CtsNetworkError).timedOut).toBe(false);
  });

  it('times out a silent server, retries, then reports the timeout', async () => {
    server.reply('hang', 'hang');
    const error = await rejection(clientWith({ timeoutMs: 100, maxRetries: 1 }).me());
    expect(error).toBeInstanceOf(CtsNetworkError);
    expect((error as CtsNetworkError).timedOut).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('uses an injected fetch', async () => {
    const calls: string[] = [];
    const fetch = (url: string, init: RequestInit) => {
      calls.push(`${init.method} ${url}`);
      return Promise.resolve(new Response(JSON.stringify({ webhooks: [] }), { status: 200 }));
    };
    await expect(clientWith({ fetch, baseUrl: 'https://api.example' }).webhooks()).resolves.toEqual({
      webhooks: [],
    });
    expect(calls).toEqual(['GET https://api.example/v1/webhooks']);
  });
});

describe('a retried DELETE that finds the resource gone', () => {
  const gone = {
    status: 404,
    headers: { 'X-Request-Id': 'req_gone' },
    body: { error: { code: 'webhook_not_found', message: 'No such webhook', request_id: 'req_gone' } },
  };
  const badGateway = { status: 502, headers: { 'Retry-After': '0' } };

  it.each([
    ['a dropped connection', 'destroy' as const],
    ['a 502', badGateway],
  ])('resolves as deleted after %s: that attempt deleted it', async (_case, first) => {
    server.reply(first, gone);
    await expect(clientWith().deleteWebhook('wh_1')).resolves.toBeUndefined();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE /v1/webhooks/wh_1',
      'DELETE /v1/webhooks/wh_1',
    ]);
  });

  it('throws the 404 of a first attempt: the webhook never was', async () => {
    server.reply(gone);
    const error = await rejection(clientWith().deleteWebhook('wh_1'));
    expect(error).toMatchObject({ status: 404, code: 'webhook_not_found' });
    expect(server.requests).toHaveLength(1);
  });

  it('throws the 404 after a 429: the refused attempt deleted nothing', async () => {
    server.reply({ status: 429, headers: { 'Retry-After': '0' } }, gone);
    const error = await rejection(clientWith().deleteWebhook('wh_1'));
    expect(error).toMatchObject({ status: 404, code: 'webhook_not_found' });
  });

  it('throws a 404 that names something else (a revoke is answered 204 when repeated)', async () => {
    const noKey = { status: 404, body: { error: { code: 'api_key_not_found', message: 'No such API key' } } };
    server.reply('destroy', noKey, 'destroy', { ...noKey });
    await expect(rejection(clientWith().revokeApiKey('key_1'))).resolves.toMatchObject({
      code: 'api_key_not_found',
    });
    await expect(rejection(clientWith().revokeAgentApiKey('acct_1', 'key_1'))).resolves.toMatchObject({
      code: 'api_key_not_found',
    });
  });

  it('answers request() with 204 and replayed when given the goneCode', async () => {
    server.reply('destroy', gone);
    const response = await clientWith().request({
      method: 'DELETE',
      path: '/v1/webhooks/wh_1',
      goneCode: 'webhook_not_found',
    });
    expect(response).toEqual({
      status: 204,
      body: undefined,
      requestId: 'req_gone',
      idempotencyKey: undefined,
      replayed: true,
    });
  });

  it('leaves a retried GET that gets 404 to throw', async () => {
    server.reply('destroy', gone);
    await expect(
      rejection(
        clientWith().request({ method: 'GET', path: '/v1/webhooks/wh_1', goneCode: 'webhook_not_found' }),
      ),
    ).resolves.toMatchObject({ status: 404 });
  });
});
