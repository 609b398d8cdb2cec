import { AuthenticateApiKey } from '@cts/contracts';
import request from 'supertest';
import { bearer, seedAccount, seedKey, startTestGateway, type TestGateway } from '../testing/test-gateway';
import { generateApiKeySecret } from './api-key-secret.domain';

function expectUnauthorized(res: request.Response): void {
  expect(res.status).toBe(401);
  expect(res.headers['x-request-id']).toMatch(/^req_/);
  expect(res.body).toEqual({
    error: { code: 'unauthorized', message: expect.any(String), request_id: res.headers['x-request-id'] },
  });
}

describe('API key authentication', () => {
  let gateway: TestGateway;

  beforeEach(async () => {
    gateway = await startTestGateway();
  });

  afterEach(async () => {
    await gateway.close();
  });

  it('rejects a request without an Authorization header', async () => {
    expectUnauthorized(await request(gateway.url).get('/v1/accounts/me'));
  });

  it.each([
    ['not a bearer token', 'Basic dXNlcjpwYXNz'],
    ['an unknown prefix', `Bearer svc_prod_${'a'.repeat(43)}`],
    ['a short body', 'Bearer svc_test_abc'],
    ['non-base62 characters', `Bearer svc_test_${'-'.repeat(43)}`],
  ])('rejects a malformed key (%s) without asking account-service', async (_case, header) => {
    expectUnauthorized(await request(gateway.url).get('/v1/accounts/me').set('Authorization', header));
    expect(gateway.accounts.calls(AuthenticateApiKey)).toHaveLength(0);
  });

  it('rejects a well-formed key that account-service does not know', async () => {
    expectUnauthorized(
      await request(gateway.url)
        .get('/v1/accounts/me')
        .set(bearer(generateApiKeySecret('live'))),
    );
    expect(gateway.accounts.calls(AuthenticateApiKey)).toHaveLength(1);
  });

  it('sends only the keyed hash of the secret to account-service', async () => {
    const alice = seedAccount(gateway.accounts);

    await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.test.secret)).expect(200);

    const [call] = gateway.accounts.calls(AuthenticateApiKey);
    expect(call.payload).toEqual({ key_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(call)).not.toContain(alice.keys.test.secret);
  });

  it('caches the principal: a second request does not ask account-service again', async () => {
    const alice = seedAccount(gateway.accounts);

    await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.live.secret)).expect(200);
    await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.live.secret)).expect(200);

    expect(gateway.accounts.calls(AuthenticateApiKey)).toHaveLength(1);
  });

  it('refuses a revoked key on the very next request, though its principal was cached', async () => {
    const alice = seedAccount(gateway.accounts);
    const key = bearer(alice.keys.test.secret);
    await request(gateway.url).get('/v1/accounts/me').set(key).expect(200);

    await request(gateway.url).delete(`/v1/api-keys/${alice.keys.test.keyId}`).set(key).expect(204);

    expectUnauthorized(await request(gateway.url).get('/v1/accounts/me').set(key));
  });

  it('refuses a revoked key on every replica at once', async () => {
    const replica = await startTestGateway({
      bus: gateway.bus,
      cache: gateway.cache,
      accounts: gateway.accounts,
    });
    try {
      const alice = seedAccount(gateway.accounts);
      const key = bearer(alice.keys.live.secret);
      await request(replica.url).get('/v1/accounts/me').set(key).expect(200);

      await request(gateway.url).delete(`/v1/api-keys/${alice.keys.live.keyId}`).set(key).expect(204);

      expectUnauthorized(await request(replica.url).get('/v1/accounts/me').set(key));
    } finally {
      await replica.close();
    }
  });

  it('lets the revocation tombstone win over a cache fill that raced it', async () => {
    const alice = seedAccount(gateway.accounts);
    const key = bearer(alice.keys.test.secret);
    // Another key of the same environment: a key revokes only keys of its own environment.
    const other = bearer(seedKey(gateway.accounts, alice.accountId, 'test').secret);
    await request(gateway.url).get('/v1/accounts/me').set(other).expect(200);
    let answer = (): void => undefined;
    gateway.accounts.hold(AuthenticateApiKey, new Promise<void>((resolve) => (answer = resolve)));

    // Authenticated before the revocation, answered (and cached) after it.
    const racing = request(gateway.url)
      .get('/v1/accounts/me')
      .set(key)
      .then((res) => res);
    await waitFor(() => gateway.accounts.calls(AuthenticateApiKey).length === 2);
    await request(gateway.url).delete(`/v1/api-keys/${alice.keys.test.keyId}`).set(other).expect(204);
    answer();

    expectUnauthorized(await racing);
    // The stale fill did happen; the tombstone is what refuses the key.
    const hash = gateway.accounts.calls(AuthenticateApiKey)[1].payload.key_hash;
    expect(await gateway.cache.get(`apikey:${hash}`)).not.toBeNull();
    expectUnauthorized(await request(gateway.url).get('/v1/accounts/me').set(key));
  });

  it('answers 503, not 401, when account-service cannot be reached', async () => {
    const alice = seedAccount(gateway.accounts);
    gateway.accounts.failNext(AuthenticateApiKey, {
      code: 'service_unavailable',
      message: 'The service did not answer in time',
    });

    const res = await request(gateway.url)
      .get('/v1/accounts/me')
      .set(bearer(alice.keys.test.secret))
      .expect(503);

    expect(res.body.error.code).toBe('service_unavailable');
    expect(res.headers['retry-after']).toBe('1');
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(condition()).toBe(true);
}
