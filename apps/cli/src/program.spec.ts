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

  describe('--json errors', () => {
    const kyc = ['kyc', 'acc_01', 'verified', '--token', 't', '--json'];

    /** stderr must be exactly one JSON line: nothing of commander's or the human form around it. */
    function parseOneLine(stderr: string): unknown {
      expect(stderr.split('\n')).toEqual([expect.any(String), '']);
      return JSON.parse(stderr);
    }

    it("prints an API error as the API's error object on stderr, exit code unchanged", async () => {
      api.respond('PATCH', '/admin/v1/accounts/acc_01', 403, {
        error: {
          code: 'policy_violation',
          message: 'over the limit',
          request_id: 'req_9',
          param: 'amount',
          reason: 'daily_limit_exceeded',
        },
      });

      const result = await runCli([...kyc, '--url', api.url]);

      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(parseOneLine(result.stderr)).toEqual({
        error: {
          code: 'policy_violation',
          message: 'over the limit',
          request_id: 'req_9',
          param: 'amount',
          reason: 'daily_limit_exceeded',
        },
      });
    });

    it.each([429, 503])('still exits 2 on %i', async (status) => {
      api.respond('PATCH', '/admin/v1/accounts/acc_01', status, {
        error: { code: 'rate_limited', message: 'later', request_id: 'req_4' },
      });

      const result = await runCli([...kyc, '--url', api.url]);

      expect(result.exitCode).toBe(2);
      expect(parseOneLine(result.stderr)).toEqual({
        error: { code: 'rate_limited', message: 'later', request_id: 'req_4' },
      });
    });

    it('says gateway_unreachable and exits 2 when nothing answers', async () => {
      const closed = await FakeApi.start();
      await closed.close();

      const result = await runCli([...kyc, '--url', closed.url]);

      expect(result.exitCode).toBe(2);
      expect(parseOneLine(result.stderr)).toEqual({
        error: {
          code: 'gateway_unreachable',
          message: expect.stringContaining(
            `cannot reach ${closed.url}/admin/v1/accounts/acc_01: `,
          ) as unknown,
        },
      });
    });

    it.each([
      ['a missing argument', ['kyc', 'acc_01', '--json'], "missing required argument 'status'"],
      ['an unknown option', ['kyc', 'acc_01', 'verified', '--json', '--nope'], "unknown option '--nope'"],
      ['an unparsable --url', [...kyc, '--url', 'nope'], 'invalid --url "nope"'],
      ['no admin token', ['kyc', 'acc_01', 'verified', '--json'], 'no admin token.'],
    ])('says invalid_usage for %s and exits 1', async (_case, argv, message) => {
      const result = await runCli(argv);

      expect(result.exitCode).toBe(1);
      expect(parseOneLine(result.stderr)).toEqual({
        error: { code: 'invalid_usage', message: expect.stringContaining(message) as unknown },
      });
    });

    it('leaves --help as it is (stdout, exit 0)', async () => {
      const result = await runCli(['kyc', '--help', '--json']);

      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('Usage: cts kyc');
      expect(result.stderr).toBe('');
    });

    it('is not asked for by a --json after --', async () => {
      const result = await runCli(['kyc', 'acc_01', '--', '--json']);

      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/^error: /);
    });
  });

  it('exits 1 on an unknown command', async () => {
    const result = await runCli(['frobnicate']);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("error: unknown command 'frobnicate'");
  });
});
