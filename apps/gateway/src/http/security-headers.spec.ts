import request from 'supertest';
import { bearer, seedAccount, startTestGateway, type TestGateway } from '../testing/test-gateway';

describe('security headers', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('marks every API response nosniff, no-referrer and not cacheable, errors included', async () => {
    const alice = seedAccount(gateway.accounts, '@alice');
    for (const res of [
      await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.test.secret)).expect(200),
      await request(gateway.url).get('/v1/accounts/me').expect(401),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});
