import { type ApiKey, ListApiKeys, RevokeApiKey } from '@cts/contracts';
import { type ApiKeyWithSecret } from './api-keys.schemas';
import request from 'supertest';
import {
  bearer,
  seedAccount,
  type SeededAccount,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway';

describe('/v1/api-keys', () => {
  let gateway: TestGateway;
  let alice: SeededAccount;

  beforeEach(async () => {
    gateway = await startTestGateway();
    alice = seedAccount(gateway.accounts);
  });

  afterEach(async () => {
    await gateway.close();
  });

  it("lists the account's keys of the calling key's environment with their usage, never a secret", async () => {
    const bob = seedAccount(gateway.accounts, '@bob');

    const res = await request(gateway.url)
      .get('/v1/api-keys')
      .set(bearer(alice.keys.test.secret))
      .expect(200);

    const keys = (res.body as { api_keys: ApiKey[] }).api_keys;
    // A test key never sees live keys (issue 14): test and live are separate worlds.
    expect(keys.map((k) => k.key_id)).toEqual([alice.keys.test.keyId]);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual([
        'created_at',
        'encrypted_usdc_total',
        'environment',
        'key_id',
        'last_used_at',
        'name',
        'prefix',
        'request_count',
        'revoked_at',
      ]);
    }
    expect(JSON.stringify(res.body)).not.toContain(alice.keys.test.secret.slice(13));
    expect(JSON.stringify(res.body)).not.toContain(bob.keys.test.keyId);
    expect(gateway.accounts.calls(ListApiKeys)[0].payload).toEqual({
      account_id: alice.accountId,
      environment: 'test',
    });
  });

  it("creates a key in the calling key's environment by default and shows its secret once", async () => {
    const res = await request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(alice.keys.live.secret))
      .send({ name: 'backend' })
      .expect(201);

    expect(res.body).toMatchObject({
      name: 'backend',
      environment: 'live',
      request_count: 0,
      revoked_at: null,
    });
    const created = res.body as ApiKeyWithSecret;
    expect(created.secret).toMatch(/^svc_live_[0-9A-Za-z]{43}$/);
    expect(created.prefix).toBe(created.secret.slice(0, 13));
    await request(gateway.url).get('/v1/accounts/me').set(bearer(created.secret)).expect(200);
    const list = await request(gateway.url)
      .get('/v1/api-keys')
      .set(bearer(alice.keys.live.secret))
      .expect(200);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
  });

  it('lets a live key create a test key', async () => {
    const res = await request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(alice.keys.live.secret))
      .send({ name: 'ci', environment: 'test' })
      .expect(201);

    expect(res.body.secret).toMatch(/^svc_test_/);
  });

  it('refuses a live key to a test key (403 forbidden)', async () => {
    const res = await request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(alice.keys.test.secret))
      .send({ name: 'prod', environment: 'live' })
      .expect(403);

    expect(res.body.error).toMatchObject({ code: 'forbidden', param: 'environment' });
  });

  it('revokes a key of the account in its environment with 204, and never one of the other environment', async () => {
    const fromTest = await request(gateway.url)
      .delete(`/v1/api-keys/${alice.keys.live.keyId}`)
      .set(bearer(alice.keys.test.secret))
      .expect(404);
    expect(fromTest.body.error.code).toBe('api_key_not_found');
    await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.live.secret)).expect(200);

    const second = await request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(alice.keys.live.secret))
      .send({ name: 'second' })
      .expect(201);
    const res = await request(gateway.url)
      .delete(`/v1/api-keys/${alice.keys.live.keyId}`)
      .set(bearer((second.body as ApiKeyWithSecret).secret))
      .expect(204);

    expect(res.text).toBe('');
    expect(gateway.accounts.calls(RevokeApiKey).at(-1)?.payload).toEqual({
      account_id: alice.accountId,
      key_id: alice.keys.live.keyId,
      environment: 'live',
    });
    await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.live.secret)).expect(401);
    await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.test.secret)).expect(200);
  });

  it("refuses an agent's own key listing or revoking keys with 403 forbidden: its owner manages them", async () => {
    const agent = seedAccount(gateway.accounts, '@alice/bot', { type: 'agent' });
    const calls = () =>
      gateway.accounts.calls(ListApiKeys).length + gateway.accounts.calls(RevokeApiKey).length;

    const listed = await request(gateway.url)
      .get('/v1/api-keys')
      .set(bearer(agent.keys.test.secret))
      .expect(403);
    const revoked = await request(gateway.url)
      .delete(`/v1/api-keys/${agent.keys.test.keyId}`)
      .set(bearer(agent.keys.test.secret))
      .expect(403);

    expect(listed.body.error).toMatchObject({
      code: 'forbidden',
      message: 'An agent cannot list API keys: its owner lists them (GET /v1/agents/{account_id}/api-keys)',
    });
    expect(revoked.body.error).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('DELETE /v1/agents/{account_id}/api-keys/{key_id}'),
    });
    expect(JSON.stringify(listed.body)).not.toContain(agent.keys.live.keyId);
    expect(calls()).toBe(0);
    await request(gateway.url).get('/v1/accounts/me').set(bearer(agent.keys.test.secret)).expect(200);
  });

  it("answers 404 api_key_not_found for an unknown key or another account's key", async () => {
    const bob = seedAccount(gateway.accounts, '@bob');

    const unknown = await request(gateway.url)
      .delete('/v1/api-keys/key_unknown')
      .set(bearer(alice.keys.test.secret))
      .expect(404);
    const foreign = await request(gateway.url)
      .delete(`/v1/api-keys/${bob.keys.test.keyId}`)
      .set(bearer(alice.keys.test.secret))
      .expect(404);

    expect(unknown.body.error.code).toBe('api_key_not_found');
    expect(foreign.body.error.code).toBe('api_key_not_found');
    await request(gateway.url).get('/v1/accounts/me').set(bearer(bob.keys.test.secret)).expect(200);
  });
});
