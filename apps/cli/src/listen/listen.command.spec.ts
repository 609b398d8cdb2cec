import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { emptyDir, runCli } from '../testing/test-io';

/** A gateway that refuses every key, as it does a revoked one; records the bearer it was sent. */
async function refusingGateway(): Promise<{ url: string; bearers: string[]; close: () => Promise<void> }> {
  const bearers: string[] = [];
  const server: Server = createServer((request, response) => {
    bearers.push(request.headers.authorization ?? '');
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        error: { code: 'unauthorized', message: 'Invalid or revoked API key', request_id: 'req_401' },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bearers,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('cts listen (command)', () => {
  let gateway: Awaited<ReturnType<typeof refusingGateway>>;
  const state = () => ['--state', join(emptyDir(), 'state.json')];

  beforeEach(async () => {
    gateway = await refusingGateway();
  });
  afterEach(() => gateway.close());

  it('reports a refused key as the API error, not as an unexpected failure', async () => {
    const result = await runCli([
      'listen',
      '--api-key',
      'svc_test_revoked',
      '--forward-to',
      'http://localhost:3000/hooks',
      '--url',
      gateway.url,
      ...state(),
    ]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('error: unauthorized: Invalid or revoked API key (request_id: req_401)\n');
  });

  it('takes the key from CTS_API_KEY when --api-key is not given (kept out of ps)', async () => {
    const result = await runCli(
      ['listen', '--forward-to', 'http://localhost:3000/hooks', '--url', gateway.url, ...state()],
      { env: { CTS_API_KEY: 'svc_test_fromenv' } },
    );

    expect(gateway.bearers[0]).toBe('Bearer svc_test_fromenv');
    expect(result.stderr).toContain('unauthorized');
  });

  it('prefers --api-key over CTS_API_KEY', async () => {
    await runCli(
      [
        'listen',
        '--api-key',
        'svc_test_flag',
        '--forward-to',
        'http://localhost:3000/hooks',
        '--url',
        gateway.url,
        ...state(),
      ],
      { env: { CTS_API_KEY: 'svc_test_fromenv' } },
    );

    expect(gateway.bearers[0]).toBe('Bearer svc_test_flag');
  });

  it('asks for a key, naming both ways, when neither is given', async () => {
    const result = await runCli([
      'listen',
      '--forward-to',
      'http://localhost:3000/hooks',
      '--url',
      gateway.url,
    ]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('--api-key');
    expect(result.stderr).toContain('CTS_API_KEY');
    expect(gateway.bearers).toEqual([]);
  });

  it('names an unknown --events type and lists the valid ones, before calling the API', async () => {
    const result = await runCli([
      'listen',
      '--api-key',
      'svc_test_key',
      '--forward-to',
      'http://localhost:3000/hooks',
      '--events',
      'transfer.confirmed,transfer.bogus',
      '--url',
      gateway.url,
      ...state(),
    ]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('unknown event type transfer.bogus');
    expect(result.stderr).toContain('transfer.confirmed, ');
    expect(result.stderr).toContain('webhook.test');
    expect(result.stderr).not.toContain('unexpected failure');
    expect(gateway.bearers).toEqual([]);
  });
});
