import { createAccount, http } from './http';
import { openApi } from './openapi-document';

export interface StackUnderTest {
  baseUrl: string;
  adminToken: string;
}

/** Every `/v1` operation of the checked-in OpenAPI document, with path parameters filled in. */
export const v1Operations = Object.entries(openApi.paths)
  .filter(([path]) => path.startsWith('/v1'))
  .flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => ['get', 'post', 'patch', 'put', 'delete'].includes(method))
      .map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'id_0000') })),
  );

/** The foundation's behaviours through HTTP, the same in both modes. */
export function foundationBehaviour(stack: () => StackUnderTest): void {
  it('creates an account with a test and a live key, shown once', async () => {
    const { baseUrl, adminToken } = stack();
    const created = await createAccount(baseUrl, adminToken);
    expect(created.account).toMatchObject({ type: 'personal', kyc_status: 'verified' });
    expect(created.account.account_id).toMatch(/^acct_/);
    expect(created.api_keys.test.secret).toMatch(/^svc_test_[0-9A-Za-z]{40,}$/);
    expect(created.api_keys.live.secret).toMatch(/^svc_live_[0-9A-Za-z]{40,}$/);
    const listed = await http(baseUrl, 'GET', '/v1/api-keys', { token: created.api_keys.test.secret });
    expect(JSON.stringify(listed.body)).not.toContain(created.api_keys.test.secret);
  });

  it('returns the authenticated account from GET /v1/accounts/me, with a request id', async () => {
    const { baseUrl, adminToken } = stack();
    const created = await createAccount(baseUrl, adminToken);
    const me = await http(baseUrl, 'GET', '/v1/accounts/me', { token: created.api_keys.live.secret });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(created.account);
    expect(me.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('answers 401 unauthorized in the error shape on every /v1 route without a key', async () => {
    const { baseUrl } = stack();
    expect(v1Operations.length).toBeGreaterThanOrEqual(4);
    for (const { method, path } of v1Operations) {
      const response = await http(baseUrl, method, path);
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
      expect(response.body).toMatchObject({
        error: { code: 'unauthorized', request_id: expect.stringMatching(/^req_/) },
      });
    }
  });

  it('refuses a malformed or unknown key with 401', async () => {
    const { baseUrl } = stack();
    for (const token of ['nonsense', 'svc_test_', `svc_test_${'A'.repeat(43)}`]) {
      expect((await http(baseUrl, 'GET', '/v1/accounts/me', { token })).status).toBe(401);
    }
  });

  it('fails a revoked key on the very next request', async () => {
    const { baseUrl, adminToken } = stack();
    const created = await createAccount(baseUrl, adminToken);
    const owner = created.api_keys.test.secret;
    const made = await http(baseUrl, 'POST', '/v1/api-keys', { token: owner, body: { name: 'short-lived' } });
    expect(made.status).toBe(201);
    const key = made.body as { key_id: string; secret: string; environment: string };
    expect(key.environment).toBe('test');
    expect((await http(baseUrl, 'GET', '/v1/accounts/me', { token: key.secret })).status).toBe(200);
    expect((await http(baseUrl, 'DELETE', `/v1/api-keys/${key.key_id}`, { token: owner })).status).toBe(204);
    expect((await http(baseUrl, 'GET', '/v1/accounts/me', { token: key.secret })).status).toBe(401);
  });

  it('never lets one account see or touch another account’s data', async () => {
    const { baseUrl, adminToken } = stack();
    const alice = await createAccount(baseUrl, adminToken);
    const mallory = await createAccount(baseUrl, adminToken);
    const seen = await http(baseUrl, 'GET', '/v1/api-keys', { token: mallory.api_keys.test.secret });
    expect(JSON.stringify(seen.body)).not.toContain(alice.api_keys.test.key_id);
    const me = await http(baseUrl, 'GET', '/v1/accounts/me', { token: mallory.api_keys.test.secret });
    expect((me.body as { account_id: string }).account_id).toBe(mallory.account.account_id);
    const revoke = await http(baseUrl, 'DELETE', `/v1/api-keys/${alice.api_keys.test.key_id}`, {
      token: mallory.api_keys.test.secret,
    });
    expect(revoke.status).toBe(404);
    expect(
      (await http(baseUrl, 'GET', '/v1/accounts/me', { token: alice.api_keys.test.secret })).status,
    ).toBe(200);
  });

  it('guards the admin API with the admin token', async () => {
    const { baseUrl } = stack();
    const response = await http(baseUrl, 'POST', '/admin/v1/accounts', {
      token: 'not-the-admin-token',
      body: { handle: '@intruder', type: 'personal' },
    });
    expect(response.status).toBe(401);
  });

  it('rejects unknown body fields and unknown routes in the error shape', async () => {
    const { baseUrl, adminToken } = stack();
    const bad = await http(baseUrl, 'POST', '/admin/v1/accounts', {
      token: adminToken,
      body: { handle: '@someone_new', type: 'personal', color: 'blue' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'invalid_request', param: 'color' } });
    const missing = await http(baseUrl, 'GET', '/v1/nothing-here', { token: adminToken });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'not_found' } });
  });
}
