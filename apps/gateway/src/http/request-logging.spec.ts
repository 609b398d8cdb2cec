import request from 'supertest';
import { bearer, seedAccount, startTestGateway, type TestGateway } from '../testing/test-gateway';

describe('request logs', () => {
  let gateway: TestGateway;
  const lines: string[] = [];
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    gateway = await startTestGateway({ logs: { write: (line: string) => void lines.push(line) } });
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('writes one JSON line per request with its id, status and caller', async () => {
    const alice = seedAccount(gateway.accounts);

    // The route takes no query parameters: answered 400 (unknown parameter), logged like any other.
    const res = await request(gateway.url)
      .get('/v1/accounts/me?limit=5')
      .set(bearer(alice.keys.test.secret))
      .expect(400);

    const entry = entries().find(
      (e) => (e.req as { id?: string } | undefined)?.id === res.headers['x-request-id'],
    );
    expect(entry).toMatchObject({
      level: 'info',
      service: 'gateway',
      req: { id: res.headers['x-request-id'], method: 'GET', path: '/v1/accounts/me', query: { limit: '5' } },
      res: { status: 400 },
      account_id: alice.accountId,
      key_id: alice.keys.test.keyId,
      environment: 'test',
      responseTime: expect.any(Number),
    });
  });

  it('never writes the API key, other headers or unknown query values', async () => {
    const alice = seedAccount(gateway.accounts, '@alice2');

    await request(gateway.url)
      .get('/v1/accounts/me?decryption_proof=eyJhbW91bnQiOiIxMjMifQ')
      .set(bearer(alice.keys.live.secret))
      .set('Idempotency-Key', 'private-key-material')
      .expect(400);

    const all = lines.join('\n');
    expect(all).not.toContain(alice.keys.live.secret);
    expect(all).not.toContain(alice.keys.live.secret.slice(9));
    expect(all).not.toContain('private-key-material');
    expect(all).not.toContain('eyJhbW91bnQiOiIxMjMifQ');
    expect(
      entries().some((e) => JSON.stringify(e.req ?? {}).includes('"decryption_proof":"[redacted]"')),
    ).toBe(true);
  });

  it('does not log health probes', async () => {
    const before = lines.length;

    await request(gateway.url).get('/healthz').expect(200);

    expect(lines.slice(before).filter((line) => line.includes('/healthz'))).toEqual([]);
  });
});

describe('request logs below info', () => {
  let gateway: TestGateway;
  const lines: string[] = [];
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    gateway = await startTestGateway({
      logs: { write: (line: string) => void lines.push(line) },
      logLevel: 'warn',
      // No transfer-service answers on this bus: its reads fail fast as unavailable.
      env: { COMMAND_TIMEOUT_MS: '300' },
    });
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('writes no line for a request that succeeded, and the usual line for one that failed', async () => {
    const alice = seedAccount(gateway.accounts);
    const ok = await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.test.secret));
    const failed = await request(gateway.url)
      .get('/v1/transfers?limit=5')
      .set(bearer(alice.keys.test.secret));

    expect(ok.status).toBe(200);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    const byRequest = (id: unknown) =>
      entries().filter((e) => (e.req as { id?: string } | undefined)?.id === id);
    expect(byRequest(ok.headers['x-request-id'])).toEqual([]);
    expect(byRequest(failed.headers['x-request-id'])).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'request errored',
        req: expect.objectContaining({ method: 'GET', path: '/v1/transfers', query: { limit: '5' } }),
        res: { status: failed.status },
        account_id: alice.accountId,
        key_id: alice.keys.test.keyId,
        environment: 'test',
        responseTime: expect.any(Number),
      }),
    ]);
    expect(lines.join('\n')).not.toContain(alice.keys.test.secret);
  });
});
