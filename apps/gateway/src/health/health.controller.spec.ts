import { MemoryCacheStore } from '@cts/platform';
import request from 'supertest';
import { startTestGateway } from '../testing/test-gateway';

class FailingCache extends MemoryCacheStore {
  override ping(): Promise<boolean> {
    return Promise.reject(new Error('connection refused'));
  }
}

describe('health', () => {
  it('answers liveness and readiness without an API key', async () => {
    const gateway = await startTestGateway();
    try {
      await request(gateway.url).get('/healthz').expect(200, { status: 'ok' });
      const ready = await request(gateway.url).get('/readyz').expect(200);
      expect(ready.body).toEqual({ status: 'ok', checks: { cache: 'up', broker: 'up' } });
      expect(ready.headers['x-request-id']).toMatch(/^req_/);
    } finally {
      await gateway.close();
    }
  });

  it('checks, in the one-process mode, the database and ledger of the services beside it', async () => {
    let databaseUp = true;
    const sharedProbes = [
      { name: 'database', check: () => Promise.resolve(true) },
      { name: 'database', check: () => Promise.resolve(databaseUp) },
      { name: 'ledger', check: () => Promise.resolve(true) },
    ];
    const gateway = await startTestGateway({ sharedProbes });
    try {
      const ready = await request(gateway.url).get('/readyz').expect(200);
      expect(ready.body).toEqual({
        status: 'ok',
        checks: { cache: 'up', broker: 'up', database: 'up', ledger: 'up' },
      });
      databaseUp = false;
      const down = await request(gateway.url).get('/readyz').expect(503);
      expect(down.body.checks).toEqual({ cache: 'up', broker: 'up', database: 'down', ledger: 'up' });
    } finally {
      await gateway.close();
    }
  });

  it('serves metrics on their own port and answers 404 for /metrics on the public port', async () => {
    const gateway = await startTestGateway();
    try {
      await request(gateway.url).get('/healthz').expect(200);
      const publicPort = await request(gateway.url).get('/metrics').expect(404);
      expect(publicPort.body.error).toMatchObject({ code: 'not_found' });
      const scraped = await request(gateway.metricsUrl).get('/metrics').expect(200);
      expect(scraped.text).toMatch(
        /cts_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/,
      );
      await request(gateway.metricsUrl).get('/v1/accounts/me').expect(404);
    } finally {
      await gateway.close();
    }
  });

  it('is not ready while the cache does not answer', async () => {
    const gateway = await startTestGateway({ cache: new FailingCache() });
    try {
      const res = await request(gateway.url).get('/readyz').expect(503);
      expect(res.body).toEqual({ status: 'unavailable', checks: { cache: 'down', broker: 'up' } });
    } finally {
      await gateway.close();
    }
  });

  it('serves the OpenAPI document and its UI', async () => {
    const gateway = await startTestGateway();
    try {
      const json = await request(gateway.url).get('/docs/openapi.json').expect(200);
      expect(json.body.paths['/v1/accounts/me']).toBeDefined();
      await request(gateway.url).get('/docs').expect(200).expect('Content-Type', /html/);
    } finally {
      await gateway.close();
    }
  });
});
