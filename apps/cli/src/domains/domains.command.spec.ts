import { FakeApi } from '../testing/fake-api';
import { TOKEN } from '../testing/fixtures';
import { runCli } from '../testing/test-io';

describe('cts domains add', () => {
  const path = '/admin/v1/accounts/acc_01/domains';
  const domain = {
    account_id: 'acc_01',
    domain: 'shop.example.com',
    verified_at: '2026-01-01T00:00:00.000Z',
  };
  let api: FakeApi;

  beforeEach(async () => {
    api = (await FakeApi.start()).respond('POST', path, 201, domain);
  });
  afterEach(() => api.close());

  const add = (...args: string[]) => runCli(['domains', 'add', ...args, '--url', api.url, '--token', TOKEN]);

  it('posts the domain and prints it', async () => {
    const result = await add('acc_01', 'shop.example.com');

    expect(result.exitCode).toBe(0);
    expect(api.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path,
        authorization: `Bearer ${TOKEN}`,
        body: { domain: 'shop.example.com' },
      }),
    ]);
    expect(result.stdout).toBe(
      [
        'domain shop.example.com added to acc_01',
        '  account_id:  acc_01',
        '  domain:      shop.example.com',
        '  verified_at: 2026-01-01T00:00:00.000Z',
        '',
      ].join('\n'),
    );
  });

  it('prints the raw response with --json', async () => {
    const { stdout } = await add('acc_01', 'shop.example.com', '--json');

    expect(JSON.parse(stdout)).toEqual(domain);
  });

  it('shows which parameter the API rejected', async () => {
    api.respond('POST', path, 400, {
      error: {
        code: 'invalid_request',
        message: 'must be a lowercase DNS name',
        request_id: 'req_2',
        param: 'domain',
      },
    });

    const result = await add('acc_01', 'Not A Domain');

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'error: invalid_request: must be a lowercase DNS name (param: domain, request_id: req_2)\n',
    );
  });
});
