import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeApi } from './testing/fake-api';
import { ACCOUNT } from './testing/fixtures';
import { emptyDir, runCli } from './testing/test-io';

describe('cts (program)', () => {
  let api: FakeApi;

  beforeEach(async () => {
    api = (await FakeApi.start()).respond('PATCH', '/admin/v1/accounts/acc_01', 200, ACCOUNT);
  });
  afterEach(() => api.close());

  function cwdWithTokenFile(token: string): string {
    const cwd = emptyDir();
    mkdirSync(join(cwd, '.data'));
    writeFileSync(join(cwd, '.data', 'admin-token'), `${token}\n`);
    return cwd;
  }

  describe('admin token', () => {
    const kyc = ['kyc', 'acc_01', 'verified'];

    it('sends --token over ADMIN_TOKEN and the token file', async () => {
      const cwd = cwdWithTokenFile('file-token');

      await runCli([...kyc, '--url', api.url, '--token', 'flag-token'], {
        env: { ADMIN_TOKEN: 'env-token' },
        cwd,
      });

      expect(api.requests[0]?.authorization).toBe('Bearer flag-token');
    });

    it('sends ADMIN_TOKEN over the token file', async () => {
      const cwd = cwdWithTokenFile('file-token');

      await runCli([...kyc, '--url', api.url], { env: { ADMIN_TOKEN: 'env-token' }, cwd });

      expect(api.requests[0]?.authorization).toBe('Bearer env-token');
    });

    it('sends the trimmed token file when nothing else is set', async () => {
      const cwd = cwdWithTokenFile('file-token');

      await runCli([...kyc, '--url', api.url], { cwd });

      expect(api.requests[0]?.authorization).toBe('Bearer file-token');
    });

    it('exits 1 without calling the API and explains where a token comes from', async () => {
      const result = await runCli([...kyc, '--url', api.url]);

      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/^error: no admin token\./);
      expect(result.stderr).toContain('--token <token>');
      expect(result.stderr).toContain('ADMIN_TOKEN');
      expect(result.stderr).toContain('.data/admin-token');
      expect(api.requests).toHaveLength(0);
    });
  });

  describe('--url', () => {
    it('defaults to CTS_URL', async () => {
      const result = await runCli(['kyc', 'acc_01', 'verified', '--token', 't'], {
        env: { CTS_URL: api.url },
      });

      expect(result.exitCode).toBe(0);
      expect(api.requests).toHaveLength(1);
    });

    it('is accepted before the command too', async () => {
      const result = await runCli(['--url', api.url, '--token', 't', 'kyc', 'acc_01', 'verified']);

      expect(result.exitCode).toBe(0);
    });

    it('exits 2 naming the URL when nothing answers there', async () => {
      const closed = await FakeApi.start();
      await closed.close();

      const result = await runCli(['kyc', 'acc_01', 'verified', '--url', closed.url, '--token', 't']);

      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`error: cannot reach ${closed.url}/admin/v1/accounts/acc_01: `);
      expect(result.stderr).toContain('ECONNREFUSED');
    });

    it('exits 1 for a URL that cannot be parsed', async () => {
      const result = await runCli(['kyc', 'acc_01', 'verified', '--url', 'nope', '--token', 't']);

      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('error: invalid --url "nope"');
    });
  });

  it('reports a non-JSON error page by its status', async () => {
    api.respond('PATCH', '/admin/v1/accounts/acc_01', 502, 'Bad Gateway');

    const result = await runCli(['kyc', 'acc_01', 'verified', '--url', api.url, '--token', 't']);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('error: http_502: Bad Gateway\n');
  });

  it('prints help listing every command and exits 0', async () => {
    const result = await runCli(['--help']);

    expect(result.exitCode).toBe(0);
    for (const command of ['accounts', 'keys', 'kyc', 'domains', 'fund', 'migrate']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });

  it('shows account ids in its examples as the service makes them (acct_…)', async () => {
    const { stdout } = await runCli(['--help']);

    expect(stdout).toMatch(/^ {2}cts kyc acct_\S+ verified$/m);
    expect(stdout).not.toMatch(/\bacc_/);
  });

  it.each(['kyc --help', 'keys create --help', 'domains add --help'])(
    'shows account ids as the service makes them in `cts %s` (acct_…)',
    async (line) => {
      const { stdout } = await runCli(line.split(' '));

      expect(stdout).toMatch(/^ +account_id +the account, e\.g\. acct_…$/m);
      expect(stdout).not.toMatch(/\bacc_/);
    },
  );

  it.each([
    ['accounts create --help', '--type'],
    ['keys create --help', '--env'],
  ])('says in `cts %s` that %s is required', async (line, option) => {
    const { stdout } = await runCli(line.split(' '));

    expect(stdout).toMatch(new RegExp(`^ +${option} <\\w+> +.*\\(required\\)`, 'm'));
  });

  it('exits 1 on an unknown command', async () => {
    const result = await runCli(['frobnicate']);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("error: unknown command 'frobnicate'");
  });
});
