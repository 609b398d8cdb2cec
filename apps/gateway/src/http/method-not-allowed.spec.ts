import request from 'supertest';
import { createOpenApiDocument } from '../openapi/openapi.export';
import { bearer, seedAccount, startTestGateway, type TestGateway } from '../testing/test-gateway';

describe('unsupported methods', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('answers 405 method_not_allowed with Allow on a known path, in the error shape', async () => {
    const res = await request(gateway.url).put('/v1/transfers/tr_123').send({}).expect(405);

    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).toEqual({
      error: {
        code: 'method_not_allowed',
        message: 'PUT is not supported on /v1/transfers/tr_123; use GET, HEAD',
        request_id: res.headers['x-request-id'],
      },
    });
  });

  it('answers 405 for every documented path with a method it lacks, and lets the documented ones through', async () => {
    const alice = seedAccount(gateway.accounts);
    const document = await createOpenApiDocument();

    for (const [template, item] of Object.entries(document.paths)) {
      const path = template.replace(/{[^}]+}/g, 'x_1');
      const documented = ['get', 'put', 'post', 'delete', 'patch'].filter((m) => m in item);
      const missing = ['put', 'patch', 'delete', 'post'].find((m) => !documented.includes(m));
      if (missing) {
        const res = await request(gateway.url)[missing as 'put'](path).set(bearer(alice.keys.test.secret));
        expect({ template, missing, status: res.status, code: res.body.error?.code }).toEqual({
          template,
          missing,
          status: 405,
          code: 'method_not_allowed',
        });
        expect(res.headers.allow?.split(', ').sort()).toEqual(
          expect.arrayContaining(documented.map((m) => m.toUpperCase())),
        );
      }
      const allowed = await request(gateway.url)
        [documented[0] as 'get'](path)
        .set(bearer(alice.keys.test.secret));
      expect({ template, status: allowed.status }).not.toEqual({ template, status: 405 });
    }
  }, 60_000);

  it('still answers 404 not_found on a path the API does not have, and a trailing slash is the same path', async () => {
    const unknown = await request(gateway.url).delete('/v1/nothing-here').expect(404);
    const slash = await request(gateway.url).delete('/v1/transfers/').expect(405);

    expect(unknown.body.error.code).toBe('not_found');
    expect(slash.headers.allow).toBe('GET, POST, HEAD');
  });
});
