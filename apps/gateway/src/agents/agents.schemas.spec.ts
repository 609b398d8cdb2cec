import request from 'supertest';
import { createOpenApiDocument } from '../openapi/openapi.export';
import {
  bearer,
  seedAccount,
  type SeededAccount,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway';

const LIMITS = { daily_limit_usdc: 10, per_transaction_limit_usdc: 1 };

describe('spend policy lists: each refusal in its own words', () => {
  let gateway: TestGateway;
  let alice: SeededAccount;

  beforeAll(async () => {
    gateway = await startTestGateway();
    alice = seedAccount(gateway.accounts);
  });

  afterAll(async () => {
    await gateway.close();
  });

  it.each([
    [
      'allowed_recipients.0',
      'must be at most 256 characters',
      { allowed_recipients: ['*.'.padEnd(257, 'a')] },
    ],
    ['allowed_recipients.0', 'must not be empty', { allowed_recipients: [''] }],
    ['allowed_recipients.1', 'must be a string', { allowed_recipients: ['*', 7] }],
    ['allowed_recipients', 'must be an array of strings', { allowed_recipients: '*' }],
    [
      'allowed_recipients',
      'must hold at most 100 patterns',
      { allowed_recipients: Array.from({ length: 101 }, (_, i) => `@shop${i}`) },
    ],
    ['assets', 'must hold at most 10 assets', { assets: Array<string>(11).fill('USDC') }],
    ['assets.1', 'must be a string', { assets: ['USDC', null] }],
  ])('refuses a new policy with 400 invalid_policy: %s %s', async (param, words, fields) => {
    const res = await request(gateway.url)
      .post('/v1/accounts/me/agents')
      .set(bearer(alice.keys.test.secret))
      .send({ name: 'shopper', spend_policy: { ...LIMITS, ...fields } })
      .expect(400);

    expect(res.body.error).toMatchObject({
      code: 'invalid_policy',
      param: `spend_policy.${param}`,
      message: `spend_policy: ${param} ${words}`,
    });
  });

  it('words a refused patch the same way', async () => {
    const res = await request(gateway.url)
      .patch('/v1/agents/acct_1/spend-policy')
      .set(bearer(alice.keys.test.secret))
      .send({ assets: Array<string>(11).fill('SOL') })
      .expect(400);

    expect(res.body.error).toMatchObject({
      code: 'invalid_policy',
      param: 'assets',
      message: 'assets must hold at most 10 assets',
    });
  });
});

describe('spend policy lists in the OpenAPI document', () => {
  it('say an empty list allows nobody, as the service enforces (fail closed)', async () => {
    const schemas = (await createOpenApiDocument()).components?.schemas ?? {};
    for (const name of ['SpendPolicyInput', 'SpendPolicyPatch']) {
      const { properties } = schemas[name] as { properties: Record<string, { description?: string }> };
      expect(properties.allowed_recipients.description).toContain('empty allows nobody');
      expect(properties.assets.description).toContain('empty allows none');
      expect(JSON.stringify(properties)).not.toContain('allows any');
    }
  });
});
