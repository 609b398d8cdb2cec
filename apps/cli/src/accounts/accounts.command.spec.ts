import { FakeApi } from '../testing/fake-api';
import { CREATED_ACCOUNT, TOKEN } from '../testing/fixtures';
import { runCli } from '../testing/test-io';

describe('cts accounts create', () => {
  let api: FakeApi;

  beforeEach(async () => {
    api = (await FakeApi.start()).respond('POST', '/admin/v1/accounts', 201, CREATED_ACCOUNT);
  });
  afterEach(() => api.close());

  const create = (...extra: string[]) =>
    runCli([
      'accounts',
      'create',
      '@alice',
      '--type',
      'personal',
      '--kyc',
      'verified',
      '--url',
      api.url,
      '--token',
      TOKEN,
      ...extra,
    ]);

  it('posts the handle, type and KYC status with the admin token', async () => {
    const result = await create();

    expect(result.exitCode).toBe(0);
    expect(api.requests).toEqual([
      {
        method: 'POST',
        path: '/admin/v1/accounts',
        authorization: `Bearer ${TOKEN}`,
        contentType: 'application/json',
        body: { handle: '@alice', type: 'personal', kyc_status: 'verified' },
      },
    ]);
  });

  it('prints aligned fields and says which secrets are shown once', async () => {
    const { stdout, stderr } = await create();

    expect(stderr).toBe('');
    expect(stdout).toContain('account @alice created\n');
    expect(stdout).toContain('  account:\n    account_id:        acc_01\n    handle:            @alice\n');
    expect(stdout).toContain('    public_key (live): -\n');
    expect(stdout).toContain('  decryption_key: dk_secret\n');
    expect(stdout).toContain('      secret:        svc_test_AbCdSecret\n');
    expect(stdout).toContain('note: decryption_key is shown once — store it now\n');
    expect(stdout).toContain('note: api_keys.test.secret is shown once — store it now\n');
    expect(stdout).toContain('note: api_keys.live.secret is shown once — store it now\n');
  });

  it('labels public_key as the live address (what the admin API returns) and says where the test one is', async () => {
    const account = { ...CREATED_ACCOUNT.account, public_key: 'LiveAddr1111' };
    api.respond('POST', '/admin/v1/accounts', 201, { ...CREATED_ACCOUNT, account });

    const { stdout } = await create();

    expect(stdout).toContain('    public_key (live): LiveAddr1111\n');
    expect(stdout).not.toMatch(/^ +public_key: /m);
    expect(stdout).toContain(
      'note: account.public_key is the live address; GET /v1/accounts/me with the svc_test_ key shows the test one\n',
    );
  });

  it('keeps public_key as the API names it with --json', async () => {
    const { stdout } = await create('--json');

    expect(stdout).toContain('"public_key": null');
    expect(stdout).not.toContain('(live)');
  });

  it('prints the raw response with --json', async () => {
    const { exitCode, stdout } = await create('--json');

    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toEqual(CREATED_ACCOUNT);
    expect(stdout).not.toContain('shown once');
  });

  it('rejects an unknown account type before calling the API', async () => {
    const result = await runCli([
      'accounts',
      'create',
      '@alice',
      '--type',
      'agent',
      '--kyc',
      'verified',
      '--url',
      api.url,
      '--token',
      TOKEN,
    ]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("error: option '--type <type>' argument 'agent' is invalid");
    expect(api.requests).toHaveLength(0);
  });

  it('leaves kyc_status to the API’s default (unverified) without --kyc', async () => {
    const result = await runCli([
      'accounts',
      'create',
      '@alice',
      '--type',
      'business',
      '--url',
      api.url,
      '--token',
      TOKEN,
    ]);

    expect(result.exitCode).toBe(0);
    expect(api.requests.map((request) => request.body)).toEqual([{ handle: '@alice', type: 'business' }]);
  });

  it('reports an API error with its code, message and param on stderr', async () => {
    api.respond('POST', '/admin/v1/accounts', 409, {
      error: {
        code: 'handle_taken',
        message: 'handle @alice is taken',
        request_id: 'req_9',
        param: 'handle',
      },
    });

    const result = await create();

    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: handle_taken: handle @alice is taken (param: handle, request_id: req_9)\n',
    );
  });
});
