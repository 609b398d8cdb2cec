import { FakeApi } from '../testing/fake-api';
import { ACCOUNT } from '../testing/fixtures';
import { runCli } from '../testing/test-io';

describe('cts mcp (stdio)', () => {
  let api: FakeApi;

  beforeEach(async () => {
    api = await FakeApi.start();
  });
  afterEach(() => api.close());

  it('refuses to start with the key of an account that is not an agent, exiting 1 with why', async () => {
    api.respond('GET', '/v1/accounts/me', 200, { ...ACCOUNT, type: 'business' });

    const result = await runCli(['mcp', '--api-key', 'svc_test_businesskey', '--url', api.url]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/not an agent's/);
    expect(result.stderr).not.toContain('svc_test_businesskey');
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/accounts/me']);
  });
});
