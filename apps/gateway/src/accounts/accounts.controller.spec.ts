import { GetAccount } from '@cts/contracts';
import request from 'supertest';
import { bearer, seedAccount, startTestGateway, type TestGateway } from '../testing/test-gateway';

describe('GET /v1/accounts/me', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('returns the account of the calling key, in the spec §2.2 shape', async () => {
    const alice = seedAccount(gateway.accounts, '@alice');

    const res = await request(gateway.url)
      .get('/v1/accounts/me')
      .set(bearer(alice.keys.test.secret))
      .expect(200);

    expect(res.body).toEqual({
      account_id: alice.accountId,
      handle: '@alice',
      type: 'personal',
      public_key: null,
      kyc_status: 'verified',
      created_at: expect.any(String),
    });
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-z]{26}$/);
  });

  it("carries the key's environment, account and request id in the command's envelope", async () => {
    const bob = seedAccount(gateway.accounts, '@bob');

    const res = await request(gateway.url)
      .get('/v1/accounts/me')
      .set(bearer(bob.keys.live.secret))
      .expect(200);

    const envelope = gateway.accounts.calls(GetAccount).at(-1);
    expect(envelope).toMatchObject({
      environment: 'live',
      account_id: bob.accountId,
      correlation_id: res.headers['x-request-id'],
      payload: { account_id: bob.accountId },
    });
  });

  it('maps a domain error of the service to its status', async () => {
    const carol = seedAccount(gateway.accounts, '@carol');
    gateway.accounts.accounts.delete(carol.accountId);

    const res = await request(gateway.url)
      .get('/v1/accounts/me')
      .set(bearer(carol.keys.test.secret))
      .expect(404);

    expect(res.body).toEqual({
      error: {
        code: 'account_not_found',
        message: 'No such account',
        request_id: res.headers['x-request-id'],
      },
    });
  });
});
