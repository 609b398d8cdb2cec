import { AddVerifiedDomain, CreateAccount, CreateApiKey, SetKycStatus } from '@cts/contracts';
import request from 'supertest';
import { type CreatedAccount } from './admin.schemas';
import {
  bearer,
  seedAccount,
  startTestGateway,
  TEST_ADMIN_TOKEN,
  type TestGateway,
} from '../testing/test-gateway';
import { FAKE_DECRYPTION_KEY } from '../testing/fake-account-service';

const admin = bearer(TEST_ADMIN_TOKEN);

describe('admin API', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  describe('guard', () => {
    it.each([
      ['no Authorization header', {}],
      ['a wrong token', bearer('adm_wrong-token-wrong-token-wrong')],
      ['a token of another length', bearer('x')],
    ])('answers 401 to %s', async (_case, headers) => {
      const res = await request(gateway.url)
        .post('/admin/v1/accounts')
        .set(headers)
        .send({ handle: '@eve', type: 'personal' })
        .expect(401);

      expect(res.body.error).toEqual({
        code: 'unauthorized',
        message: 'Missing or invalid admin token',
        request_id: res.headers['x-request-id'],
      });
      expect(gateway.accounts.calls(CreateAccount)).toHaveLength(0);
    });

    it('does not accept an API key', async () => {
      const alice = seedAccount(gateway.accounts, '@alice');

      await request(gateway.url)
        .patch(`/admin/v1/accounts/${alice.accountId}`)
        .set(bearer(alice.keys.live.secret))
        .send({ kyc_status: 'enhanced' })
        .expect(401);
    });

    it('refuses every request when ADMIN_TOKEN is not set', async () => {
      const closed = await startTestGateway({ adminToken: null });
      try {
        await request(closed.url)
          .post('/admin/v1/accounts')
          .set(admin)
          .send({ handle: '@eve', type: 'personal' })
          .expect(401);
      } finally {
        await closed.close();
      }
    });
  });

  it('creates an account with a test and a live key whose secrets are shown once and work', async () => {
    const res = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(admin)
      .send({ handle: '@dora', type: 'business', kyc_status: 'verified' })
      .expect(201);

    expect(res.body).toEqual({
      account: expect.objectContaining({ handle: '@dora', type: 'business', kyc_status: 'verified' }),
      decryption_key: FAKE_DECRYPTION_KEY,
      api_keys: {
        test: expect.objectContaining({
          environment: 'test',
          secret: expect.stringMatching(/^svc_test_[0-9A-Za-z]{43}$/),
        }),
        live: expect.objectContaining({
          environment: 'live',
          secret: expect.stringMatching(/^svc_live_[0-9A-Za-z]{43}$/),
        }),
      },
    });
    const me = await request(gateway.url)
      .get('/v1/accounts/me')
      .set(bearer(res.body.api_keys.live.secret))
      .expect(200);
    expect(me.body.account_id).toBe(res.body.account.account_id);
  });

  it('sends account-service one command, with only the hashes and display prefixes of the new keys', async () => {
    const res = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(admin)
      .send({ handle: '@fred', type: 'personal' })
      .expect(201);

    const { api_keys: keys } = res.body as CreatedAccount;
    const [call] = gateway.accounts.calls(CreateAccount).slice(-1);
    expect(call.payload).toEqual({
      kind: 'account',
      recipient_key: expect.any(String),
      handle: '@fred',
      type: 'personal',
      kyc_status: 'unverified',
      api_keys: [
        {
          name: 'Default test key',
          environment: 'test',
          key_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          prefix: keys.test.secret.slice(0, 13),
        },
        {
          name: 'Default live key',
          environment: 'live',
          key_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          prefix: keys.live.secret.slice(0, 13),
        },
      ],
    });
    expect(JSON.stringify(call)).not.toContain(keys.test.secret);
  });

  it("opens the decryption key that came back encrypted to this request's one-time key", async () => {
    const res = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(admin)
      .send({ handle: '@gina', type: 'personal' })
      .expect(201);
    expect(res.body.decryption_key).toBe(FAKE_DECRYPTION_KEY);
    const [call] = gateway.accounts.calls(CreateAccount).slice(-1);
    expect(call.payload.recipient_key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(JSON.stringify(call)).not.toContain(FAKE_DECRYPTION_KEY);
  });

  it('refuses to create an agent account (its owner creates it)', async () => {
    const res = await request(gateway.url)
      .post('/admin/v1/accounts')
      .set(admin)
      .send({ handle: '@bot', type: 'agent' })
      .expect(400);

    expect(res.body.error.param).toBe('type');
  });

  it('sets the KYC status of an account', async () => {
    const alice = seedAccount(gateway.accounts, '@alice2', { kyc: 'pending' });

    const res = await request(gateway.url)
      .patch(`/admin/v1/accounts/${alice.accountId}`)
      .set(admin)
      .send({ kyc_status: 'enhanced' })
      .expect(200);

    expect(res.body).toMatchObject({ account_id: alice.accountId, kyc_status: 'enhanced' });
    expect(gateway.accounts.calls(SetKycStatus).at(-1)).toMatchObject({
      account_id: alice.accountId,
      environment: null,
    });
  });

  it('answers 404 account_not_found for an unknown account', async () => {
    const res = await request(gateway.url)
      .patch('/admin/v1/accounts/acct_nobody')
      .set(admin)
      .send({ kyc_status: 'verified' })
      .expect(404);

    expect(res.body.error.code).toBe('account_not_found');
  });

  it('creates another key for an account', async () => {
    const alice = seedAccount(gateway.accounts, '@alice3');

    const res = await request(gateway.url)
      .post(`/admin/v1/accounts/${alice.accountId}/api-keys`)
      .set(admin)
      .send({ name: 'backend', environment: 'live' })
      .expect(201);

    expect(res.body).toMatchObject({
      name: 'backend',
      environment: 'live',
      secret: expect.stringMatching(/^svc_live_/),
    });
    expect(gateway.accounts.calls(CreateApiKey).at(-1)?.payload).toMatchObject({
      account_id: alice.accountId,
    });
  });

  it('records a verified domain', async () => {
    const shop = seedAccount(gateway.accounts, '@shop', { type: 'business' });

    const res = await request(gateway.url)
      .post(`/admin/v1/accounts/${shop.accountId}/domains`)
      .set(admin)
      .send({ domain: 'shop.example.com' })
      .expect(201);

    expect(res.body).toEqual({
      account_id: shop.accountId,
      domain: 'shop.example.com',
      verified_at: expect.any(String),
    });
    expect(gateway.accounts.calls(AddVerifiedDomain)).toHaveLength(1);
  });
});
