import { FakeApi } from '../testing/fake-api';
import { runCli } from '../testing/test-io';

describe('cts fund', () => {
  const funded = { asset: 'USDC', amount: '100', status: 'confirmed' };
  let api: FakeApi;

  beforeEach(async () => {
    api = (await FakeApi.start()).respond('POST', '/v1/sandbox/fund', 200, funded);
  });
  afterEach(() => api.close());

  it('authenticates with the API key, not an admin token, and keeps the amount a string', async () => {
    const result = await runCli(['fund', 'svc_test_key', 'USDC', '100.5', '--url', api.url], {
      env: { ADMIN_TOKEN: 'admin-secret' },
    });

    expect(result.exitCode).toBe(0);
    expect(api.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/sandbox/fund',
        authorization: 'Bearer svc_test_key',
        body: { asset: 'USDC', amount: '100.5' },
      }),
    ]);
  });

  it('needs no admin token at all', async () => {
    const result = await runCli(['fund', 'svc_test_key', 'USDC', '100', '--url', api.url]);

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('funded 100 USDC\n  asset:  USDC\n  amount: 100\n  status: confirmed\n');
  });

  it('shows the amount as required in its usage line', async () => {
    const { stdout } = await runCli(['fund', '--help']);

    expect(stdout).toContain('Usage: cts fund [options] [api_key] <asset> <amount>\n');
  });

  it('prints the raw response with --json', async () => {
    const { stdout } = await runCli(['fund', 'svc_test_key', 'USDC', '100', '--url', api.url, '--json']);

    expect(JSON.parse(stdout)).toEqual(funded);
  });

  it('exits 1 when a live key is refused', async () => {
    api.respond('POST', '/v1/sandbox/fund', 403, {
      error: { code: 'test_mode_only', message: 'sandbox funding needs a test key', request_id: 'req_3' },
    });

    const result = await runCli(['fund', 'svc_live_key', 'USDC', '100', '--url', api.url]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'error: test_mode_only: sandbox funding needs a test key (request_id: req_3)\n',
    );
  });

  it('takes the key from CTS_API_KEY when only the asset and amount are given (out of ps)', async () => {
    const result = await runCli(['fund', 'USDC', '7', '--url', api.url], {
      env: { CTS_API_KEY: 'svc_test_env' },
    });
    const missing = await runCli(['fund', 'USDC', '7', '--url', api.url]);

    expect(result.exitCode).toBe(0);
    expect(api.requests).toEqual([
      expect.objectContaining({ authorization: 'Bearer svc_test_env', body: { asset: 'USDC', amount: '7' } }),
    ]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('an API key is required');
  });

  it('refuses a key and an asset without an amount, sending nothing (not the key as the asset)', async () => {
    const withEnvKey = await runCli(['fund', 'svc_test_key', 'USDC', '--url', api.url], {
      env: { CTS_API_KEY: 'svc_test_env' },
    });
    const withoutEnvKey = await runCli(['fund', 'svc_live_key', 'USDC', '--url', api.url]);

    for (const result of [withEnvKey, withoutEnvKey]) {
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toBe('error: usage: cts fund [api_key] <asset> <amount>\n');
    }
    expect(api.requests).toEqual([]);
  });

  it('exits 2 on 429 and 503, which say "later", so a script can retry', async () => {
    for (const [status, code] of [
      [429, 'rate_limited'],
      [503, 'service_unavailable'],
    ] as const) {
      api.respond('POST', '/v1/sandbox/fund', status, {
        error: { code, message: 'later', request_id: 'req_4' },
      });

      const result = await runCli(['fund', 'svc_test_key', 'USDC', '100', '--url', api.url]);

      expect([status, result.exitCode]).toEqual([status, 2]);
      expect(result.stderr).toBe(`error: ${code}: later (request_id: req_4)\n`);
    }
  });
});
