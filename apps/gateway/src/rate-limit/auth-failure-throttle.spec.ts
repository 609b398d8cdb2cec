import request from 'supertest';
import {
  bearer,
  seedAccount,
  startTestGateway,
  TEST_ADMIN_TOKEN,
  type TestGateway,
} from '../testing/test-gateway';

const madeUp = (n: number) => `svc_test_${String(n).padStart(43, 'A')}`;

describe('failed authentications are throttled per client address', () => {
  let gateway: TestGateway;

  beforeEach(async () => {
    gateway = await startTestGateway({ env: { AUTH_FAILURES_PER_MINUTE: '3' } });
  });

  afterEach(() => gateway.close());

  it('answers a burst of made-up keys with 429 rate_limited and Retry-After, and never refuses a valid key from the same address', async () => {
    const alice = seedAccount(gateway.accounts);
    for (let n = 0; n < 3; n++) {
      await request(gateway.url)
        .get('/v1/accounts/me')
        .set(bearer(madeUp(n)))
        .expect(401);
    }
    const throttled = await request(gateway.url)
      .get('/v1/accounts/me')
      .set(bearer(madeUp(9)))
      .expect(429);
    expect(throttled.body.error).toMatchObject({ code: 'rate_limited' });
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.test.secret)).expect(200);
    // A request without any key is no guess: plain 401.
    await request(gateway.url).get('/v1/accounts/me').expect(401);
  });

  it('counts wrong admin tokens too, and still lets the right one in', async () => {
    for (let n = 0; n < 3; n++) {
      await request(gateway.url)
        .post('/admin/v1/accounts')
        .set(bearer(`wrong-admin-token-${n}-0123456789`))
        .send({})
        .expect(401);
    }
    const throttled = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(bearer('wrong-admin-token-x-0123456789'))
      .send({})
      .expect(429);
    expect(throttled.headers['retry-after']).toBeDefined();
    const allowed = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(bearer(TEST_ADMIN_TOKEN))
      .send({});
    expect(allowed.status).toBe(400);
  });

  it('takes the client address from X-Forwarded-For only behind a trusted proxy (TRUST_PROXY)', async () => {
    const burst = async (forwardedFor: string, expected: number) => {
      for (let n = 0; n < 3; n++) {
        await request(gateway.url)
          .get('/v1/accounts/me')
          .set(bearer(madeUp(n)))
          .set('X-Forwarded-For', forwardedFor)
          .expect(expected);
      }
    };
    // Trusting nobody (the default), a client cannot pick its address: the header is ignored.
    await burst('203.0.113.1', 401);
    await burst('203.0.113.2', 429);
    await gateway.close();

    gateway = await startTestGateway({ env: { AUTH_FAILURES_PER_MINUTE: '3', TRUST_PROXY: 'loopback' } });
    await burst('203.0.113.1', 401);
    await request(gateway.url)
      .get('/v1/accounts/me')
      .set(bearer(madeUp(9)))
      .set('X-Forwarded-For', '203.0.113.1')
      .expect(429);
    // Another client behind the same proxy keeps its own count.
    await burst('203.0.113.2', 401);
  });
});
