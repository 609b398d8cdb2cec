import { DomainError } from '@cts/contracts';
import request from 'supertest';
import { z } from 'zod';
import {
  bearer,
  seedAccount,
  startTestGateway,
  TEST_ADMIN_TOKEN,
  type TestGateway,
} from '../testing/test-gateway';
import { SchemaValidationPipe } from './validation.pipe';

describe('request validation', () => {
  describe('over HTTP', () => {
    let gateway: TestGateway;

    beforeAll(async () => {
      gateway = await startTestGateway();
    });

    afterAll(async () => {
      await gateway.close();
    });

    it('refuses an id with a control character in a path or a cursor: 400, not a lookup', async () => {
      const alice = seedAccount(gateway.accounts);
      const cases: [string, string][] = [
        ['/v1/transfers/tr_%00', 'transfer_id'],
        ['/v1/webhooks/whk_%00x/deliveries', 'webhook_id'],
        ['/v1/agents/acct_%7F/spend-policy', 'account_id'],
        ['/v1/events?starting_after=evt_%0A', 'starting_after'],
        ['/v1/agents/acct_x/transactions?starting_after=%00', 'starting_after'],
      ];

      for (const [path, param] of cases) {
        const res = await request(gateway.url).get(path).set(bearer(alice.keys.test.secret)).expect(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
      }
      // The same route takes a well-formed id past validation (no transfer-service here to answer it).
      const wellFormed = await request(gateway.url)
        .get('/v1/transfers/tr_nope')
        .set(bearer(alice.keys.test.secret));
      expect(wellFormed.body.error?.code).not.toBe('invalid_request');
    });

    it('refuses an API key name with a control character', async () => {
      const alice = seedAccount(gateway.accounts);

      const res = await request(gateway.url)
        .post('/v1/api-keys')
        .set(bearer(alice.keys.test.secret))
        .send({ name: 'ci\u0000key' })
        .expect(400);

      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'name' });
    });

    it('rejects an unknown body field with 400 naming it in param', async () => {
      const alice = seedAccount(gateway.accounts);

      const res = await request(gateway.url)
        .post('/v1/api-keys')
        .set(bearer(alice.keys.test.secret))
        .send({ name: 'ci', scopes: ['all'] })
        .expect(400);

      expect(res.body).toEqual({
        error: {
          code: 'invalid_request',
          message: 'Unknown field scopes',
          param: 'scopes',
          request_id: res.headers['x-request-id'],
        },
      });
    });

    it('rejects an invalid field value with 400 naming it in param', async () => {
      const res = await request(gateway.url)
        .post('/admin/v1/accounts')
        .set(bearer(TEST_ADMIN_TOKEN))
        .send({ handle: 'alice', type: 'personal' })
        .expect(400);

      expect(res.body.error).toMatchObject({
        code: 'invalid_request',
        param: 'handle',
        message: expect.stringContaining('handle'),
      });
    });

    it('rejects a missing required field with 400 naming it in param', async () => {
      const res = await request(gateway.url)
        .post('/admin/v1/accounts')
        .set(bearer(TEST_ADMIN_TOKEN))
        .send({ handle: '@alice' })
        .expect(400);

      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'type' });
    });

    it('refuses an unknown query parameter on every GET of the API, those without parameters included', async () => {
      const alice = seedAccount(gateway.accounts);
      const document = (await request(gateway.url).get('/docs/openapi.json').expect(200)).body as {
        paths: Record<string, { get?: unknown }>;
      };
      const paths = Object.entries(document.paths)
        .filter(([path, item]) => path.startsWith('/v1/') && item.get !== undefined)
        .map(([path]) => path.replace(/\{[^}]+\}/g, 'id_1'));
      // The routes a fuzzing pass found ignoring unknown parameters are among them.
      expect(paths).toEqual(
        expect.arrayContaining([
          '/v1/webhooks',
          '/v1/api-keys',
          '/v1/accounts/me/agents',
          '/v1/agents/transactions/pending',
          '/v1/accounts/me/spend-policy',
        ]),
      );

      for (const path of paths) {
        const res = await request(gateway.url).get(`${path}?colour=red`).set(bearer(alice.keys.test.secret));

        expect({ path, status: res.status, body: res.body as unknown }).toEqual({
          path,
          status: 400,
          body: {
            error: {
              code: 'invalid_request',
              message: 'Unknown query parameter colour',
              param: 'colour',
              request_id: res.headers['x-request-id'],
            },
          },
        });
      }
    });

    it('still answers a GET without query parameters as before', async () => {
      const alice = seedAccount(gateway.accounts);

      const res = await request(gateway.url).get('/v1/accounts/me').set(bearer(alice.keys.test.secret));

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ account_id: alice.accountId });
    });

    it('validates path parameters too', async () => {
      const alice = seedAccount(gateway.accounts);

      const res = await request(gateway.url)
        .delete(`/v1/api-keys/${'k'.repeat(65)}`)
        .set(bearer(alice.keys.test.secret))
        .expect(400);

      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'key_id' });
    });
  });

  describe('with the constraints the OpenAPI document states', () => {
    let gateway: TestGateway;

    beforeAll(async () => {
      gateway = await startTestGateway();
    });

    afterAll(async () => {
      await gateway.close();
    });

    it.each(['', '0', '0.00', '-1', '1e3', '01.5', '.5', '1.'])(
      'refuses the amount %j with 400 invalid_request',
      async (amount) => {
        const alice = seedAccount(gateway.accounts);

        const res = await request(gateway.url)
          .post('/v1/transfers')
          .set(bearer(alice.keys.test.secret))
          .send({ to: '@bob', amount })
          .expect(400);

        expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'amount' });
      },
    );

    it.each([
      [{}, 'spend_policy.daily_limit_usdc', 'spend_policy: daily_limit_usdc is required'],
      [
        { daily_limit_usdc: 10, per_transaction_limit_usdc: -1 },
        'spend_policy.per_transaction_limit_usdc',
        'spend_policy: per_transaction_limit_usdc must not be negative',
      ],
      [
        { daily_limit_usdc: 10, per_transaction_limit_usdc: 1, active_hours: '9-17' },
        'spend_policy.active_hours',
        'spend_policy: active_hours must be HH:MM-HH:MM with times from 00:00 to 23:59',
      ],
      [
        { daily_limit_usdc: 10, per_transaction_limit_usdc: 1, colour: 'red' },
        'spend_policy.colour',
        'spend_policy: colour is not a known field',
      ],
    ])(
      'refuses the spend_policy %j with 400 invalid_policy naming %s',
      async (spendPolicy, param, message) => {
        const alice = seedAccount(gateway.accounts);

        const res = await request(gateway.url)
          .post('/v1/accounts/me/agents')
          .set(bearer(alice.keys.test.secret))
          .send({ name: 'shopper', spend_policy: spendPolicy })
          .expect(400);

        expect(res.body.error).toEqual({
          code: 'invalid_policy',
          param,
          message,
          request_id: expect.any(String),
        });
      },
    );

    it('answers a bad policy patch with invalid_policy and a bad agent name with invalid_request', async () => {
      const alice = seedAccount(gateway.accounts);

      const patch = await request(gateway.url)
        .patch('/v1/agents/acct_1/spend-policy')
        .set(bearer(alice.keys.test.secret))
        .send({ approval_window_minutes: 0 })
        .expect(400);
      const name = await request(gateway.url)
        .post('/v1/accounts/me/agents')
        .set(bearer(alice.keys.test.secret))
        .send({ name: 'Not OK', spend_policy: { daily_limit_usdc: 10, per_transaction_limit_usdc: 1 } })
        .expect(400);

      expect(patch.body.error).toMatchObject({
        code: 'invalid_policy',
        param: 'approval_window_minutes',
        message: 'approval_window_minutes must be a whole number of minutes from 1 to 10080',
      });
      expect(name.body.error).toMatchObject({ code: 'invalid_request', param: 'name' });
    });
  });

  describe('of query parameters', () => {
    const pipe = new SchemaValidationPipe();
    const schema = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }).strict();
    const asQuery = (value: unknown) => pipe.transform(value, { type: 'query', schema });

    it('returns the parsed value', async () => {
      await expect(asQuery({ limit: '50' })).resolves.toEqual({ limit: 50 });
      await expect(asQuery({})).resolves.toEqual({ limit: 20 });
    });

    it('rejects an unknown query parameter with param naming it', async () => {
      const error = await asQuery({ limt: '5' }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).toBody()).toEqual({
        code: 'invalid_request',
        message: 'Unknown query parameter limt',
        param: 'limt',
      });
    });

    it('rejects an out-of-range value with param naming it', async () => {
      const error = (await asQuery({ limit: '500' }).catch((e: unknown) => e)) as DomainError;

      expect(error.toBody()).toMatchObject({
        code: 'invalid_request',
        param: 'limit',
        message: expect.stringMatching(/^Invalid query parameter limit: /),
      });
    });

    it('leaves parameters without a schema alone', async () => {
      await expect(pipe.transform('anything', { type: 'custom' })).resolves.toBe('anything');
    });
  });
});
