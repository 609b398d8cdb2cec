import { FakeApi } from '../testing/fake-api';
import { ACCOUNT, TOKEN } from '../testing/fixtures';
import { runCli } from '../testing/test-io';

describe('cts kyc', () => {
  let api: FakeApi;

  beforeEach(async () => {
    api = (await FakeApi.start()).respond('PATCH', '/admin/v1/accounts/acc_01', 200, ACCOUNT);
  });
  afterEach(() => api.close());

  const kyc = (...args: string[]) => runCli(['kyc', ...args, '--url', api.url, '--token', TOKEN]);

  it('patches the KYC status and prints the account', async () => {
    const result = await kyc('acc_01', 'verified');

    expect(result.exitCode).toBe(0);
    expect(api.requests).toEqual([
      expect.objectContaining({
        method: 'PATCH',
        path: '/admin/v1/accounts/acc_01',
        authorization: `Bearer ${TOKEN}`,
        body: { kyc_status: 'verified' },
      }),
    ]);
    expect(result.stdout).toBe(
      [
        'KYC status of acc_01 set to verified',
        '  account_id: acc_01',
        '  handle:     @alice',
        '  type:       personal',
        '  public_key: -',
        '  kyc_status: verified',
        '  created_at: 2026-01-01T00:00:00.000Z',
        '',
      ].join('\n'),
    );
  });

  it('prints the raw account with --json', async () => {
    const { stdout } = await kyc('acc_01', 'verified', '--json');

    expect(JSON.parse(stdout)).toEqual(ACCOUNT);
  });

  it('exits 1 with the code and message of a 404', async () => {
    const result = await kyc('acc_missing', 'verified');

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'error: not_found: no route PATCH /admin/v1/accounts/acc_missing (request_id: req_fake)\n',
    );
  });

  it('needs both the account and the status', async () => {
    const result = await kyc('acc_01');

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("error: missing required argument 'status'");
    expect(api.requests).toHaveLength(0);
  });
});
