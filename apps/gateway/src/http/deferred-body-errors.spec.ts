import request from 'supertest';
import {
  bearer,
  seedAccount,
  startTestGateway,
  TEST_ADMIN_TOKEN,
  type TestGateway,
} from '../testing/test-gateway';

const expected = (message: string, requestId: unknown) => ({
  error: { code: 'invalid_request', message, request_id: requestId },
});

describe('a body that is not JSON', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain; charset=utf-8', 'text/plain'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['application/merge-patch+json', 'application/merge-patch+json'],
  ])('answers a POST sent as %s with 400 invalid_request naming the Content-Type', async (type, named) => {
    const alice = seedAccount(gateway.accounts);

    const res = await request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(alice.keys.test.secret))
      .set('Content-Type', type)
      .send('{"name":"ci"}')
      .expect(400);

    expect(res.body).toEqual(
      expected(
        `Content-Type must be application/json, not ${named}: send the body as a JSON object`,
        res.headers['x-request-id'],
      ),
    );
  });

  it('answers a multipart form and a PATCH the same way', async () => {
    const alice = seedAccount(gateway.accounts);

    const form = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(bearer(TEST_ADMIN_TOKEN))
      .field('handle', '@alice')
      .field('type', 'personal')
      .expect(400);
    // The policy's own code is for a policy that fails its schema; this body was never read.
    const patch = await request(gateway.url)
      .patch('/v1/agents/acct_1/spend-policy')
      .set(bearer(alice.keys.test.secret))
      .type('form')
      .send('daily_limit_usdc=10')
      .expect(400);

    expect(form.body).toEqual(
      expected(
        'Content-Type must be application/json, not multipart/form-data: send the body as a JSON object',
        form.headers['x-request-id'],
      ),
    );
    expect(patch.body).toEqual(
      expected(
        'Content-Type must be application/json, not application/x-www-form-urlencoded: send the body as a JSON object',
        patch.headers['x-request-id'],
      ),
    );
  });

  it('says so when the body has no Content-Type, and echoes no malformed header', async () => {
    const alice = seedAccount(gateway.accounts);

    const untyped = await fetch(`${gateway.url}/v1/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.keys.test.secret}` },
      body: new TextEncoder().encode('{"name":"ci"}'),
    });
    const malformed = await request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(alice.keys.test.secret))
      .set('Content-Type', 'not a <media> type')
      .send('{"name":"ci"}')
      .expect(400);

    expect(untyped.status).toBe(400);
    expect(await untyped.json()).toEqual(
      expected(
        'Content-Type must be application/json, the request has a body but no Content-Type: send the body as a JSON object',
        untyped.headers.get('x-request-id'),
      ),
    );
    expect(malformed.body).toEqual(
      expected(
        'Content-Type must be application/json, not what the request sent: send the body as a JSON object',
        malformed.headers['x-request-id'],
      ),
    );
  });

  it('answers a POST without a body with what to send', async () => {
    const alice = seedAccount(gateway.accounts);

    const res = await request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(alice.keys.test.secret))
      .expect(400);
    const bare = await fetch(`${gateway.url}/v1/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.keys.test.secret}` },
    });

    const message = 'The request has no body: send a JSON object with Content-Type: application/json';
    expect(res.body).toEqual(expected(message, res.headers['x-request-id']));
    expect(bare.status).toBe(400);
    expect(await bare.json()).toEqual(expected(message, bare.headers.get('x-request-id')));
  });

  it('still answers 401 first without a valid key', async () => {
    const res = await request(gateway.url)
      .post('/v1/api-keys')
      .set('Content-Type', 'text/plain')
      .send('{"name":"ci"}')
      .expect(401);

    expect(res.body.error.code).toBe('unauthorized');
  });

  it('leaves a route that reads no body alone, whatever it is sent', async () => {
    const alice = seedAccount(gateway.accounts);

    const res = await request(gateway.url)
      .delete('/v1/api-keys/key_nope')
      .set(bearer(alice.keys.test.secret))
      .set('Content-Type', 'text/plain')
      .send('please')
      .expect(404);

    expect(res.body.error.code).toBe('api_key_not_found');
  });

  it('reads a JSON body as before', async () => {
    const alice = seedAccount(gateway.accounts);

    const res = await request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(alice.keys.test.secret))
      .set('Content-Type', 'application/json; charset=utf-8')
      .send('{"name":"ci"}')
      .expect(201);

    expect(res.body).toMatchObject({ name: 'ci', environment: 'test' });
  });
});
