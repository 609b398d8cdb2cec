import { FakeApi } from '../testing/fake-api';
import { apiKey, TOKEN } from '../testing/fixtures';
import { runCli } from '../testing/test-io';

describe('cts keys create', () => {
  let api: FakeApi;
  const path = '/admin/v1/accounts/acc_01/api-keys';

  beforeEach(async () => {
    api = (await FakeApi.start()).respond('POST', path, 201, apiKey('live', 'ci'));
  });
  afterEach(() => api.close());

  const keys = (...args: string[]) => runCli(['keys', 'create', ...args, '--url', api.url, '--token', TOKEN]);

  it('posts the name and environment for the account', async () => {
    const result = await keys('acc_01', '--env', 'live', '--name', 'ci');

    expect(result.exitCode).toBe(0);
    expect(api.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path,
        authorization: `Bearer ${TOKEN}`,
        body: { name: 'ci', environment: 'live' },
      }),
    ]);
  });

  it('names the key when --name is left out', async () => {
    await keys('acc_01', '--env', 'live');

    expect(api.requests[0]?.body).toEqual({ name: 'created with cts', environment: 'live' });
  });

  it('prints the key with a shown-once note for its secret', async () => {
    const { stdout } = await keys('acc_01', '--env', 'live');

    expect(stdout).toContain('live API key created for acc_01\n');
    expect(stdout).toContain('  key_id:        key_live\n');
    expect(stdout).toContain('  secret:        svc_live_AbCdSecret\n');
    expect(stdout).toContain('note: secret is shown once — store it now\n');
  });

  it('prints the raw key with --json', async () => {
    const { stdout } = await keys('acc_01', '--env', 'live', '--json');

    expect(JSON.parse(stdout)).toEqual(apiKey('live', 'ci'));
  });

  it('encodes the account id into the path', async () => {
    await keys('acc/../x', '--env', 'test');

    expect(api.requests[0]?.path).toBe('/admin/v1/accounts/acc%2F..%2Fx/api-keys');
  });

  it('requires --env to be test or live', async () => {
    const missing = await keys('acc_01');
    const wrong = await keys('acc_01', '--env', 'prod');

    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("error: required option '--env <environment>' not specified");
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toContain('Allowed choices are test, live');
    expect(api.requests).toHaveLength(0);
  });
});
