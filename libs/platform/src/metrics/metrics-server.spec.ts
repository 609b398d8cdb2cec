import { type MetricsServer, startMetricsServer } from './metrics-server';

describe('the internal port: metrics and internal posts, nothing else', () => {
  let server: MetricsServer;
  const taken: unknown[] = [];

  beforeAll(async () => {
    server = await startMetricsServer(0, '127.0.0.1', {
      '/internal/v1/replies': (body) => {
        taken.push(body);
        return (body as { id?: string }).id === 'waiting';
      },
    });
  });

  afterAll(() => server.close());

  const post = (path: string, body: string) =>
    fetch(`${server.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

  it('serves Prometheus metrics on GET /metrics', async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('# HELP');
  });

  it('hands a posted JSON body to its route: 204 when taken, 404 when not wanted there', async () => {
    expect((await post('/internal/v1/replies', '{"id":"waiting"}')).status).toBe(204);
    expect((await post('/internal/v1/replies', '{"id":"gone"}')).status).toBe(404);
    expect(taken).toEqual([{ id: 'waiting' }, { id: 'gone' }]);
  });

  it('refuses a body that is not JSON with 400, and anything unrouted with 404', async () => {
    expect((await post('/internal/v1/replies', 'not json')).status).toBe(400);
    expect((await fetch(`${server.url}/internal/v1/replies`)).status).toBe(404);
    expect((await post('/metrics', '{}')).status).toBe(404);
    expect(taken).toHaveLength(2);
  });
});

describe('the internal port with INTERNAL_TOKEN set', () => {
  const token = 'itk_0123456789abcdefghijklmnopqrstuv';
  let server: MetricsServer;
  const taken: unknown[] = [];

  beforeAll(async () => {
    server = await startMetricsServer(
      0,
      '127.0.0.1',
      {
        '/internal/v1/replies': (body) => {
          taken.push(body);
          return (body as { id?: string }).id === 'waiting';
        },
      },
      token,
    );
  });

  afterAll(() => server.close());

  const post = (body: string, authorization?: string) =>
    fetch(`${server.url}/internal/v1/replies`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    });

  it('refuses a post without the token, or with another, with 401 and never hands it to the route', async () => {
    expect((await post('{"id":"waiting"}')).status).toBe(401);
    expect((await post('{"id":"waiting"}', `Bearer ${token.slice(0, -1)}x`)).status).toBe(401);
    expect((await post('not json', 'Bearer short')).status).toBe(401);
    expect(taken).toEqual([]);
  });

  it('takes a post that carries the token as before: 204 when taken, 404 when not wanted there', async () => {
    expect((await post('{"id":"waiting"}', `Bearer ${token}`)).status).toBe(204);
    expect((await post('{"id":"gone"}', `Bearer ${token}`)).status).toBe(404);
    expect(taken).toEqual([{ id: 'waiting' }, { id: 'gone' }]);
  });

  it('still serves /metrics to a scraper, which has no token', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  });
});
