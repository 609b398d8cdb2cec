import {
  type CommandContract,
  contextFrom,
  CreateAccount,
  CreateApiKey,
  createEnvelope,
  CreateTransfer,
  EnvelopeMeta,
  ok,
} from '@cts/contracts';
import request from 'supertest';
import {
  bearer,
  seedAccount,
  type SeededAccount,
  startTestGateway,
  TEST_ADMIN_TOKEN,
  type TestGateway,
} from '../testing/test-gateway';

describe('Idempotency-Key', () => {
  let gateway: TestGateway;
  let alice: SeededAccount;

  const createKey = (secret: string, idempotencyKey: string, body: object = { name: 'ci' }) =>
    request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(secret))
      .set('Idempotency-Key', idempotencyKey)
      .send(body);

  beforeEach(async () => {
    gateway = await startTestGateway({ tuning: { idempotencyWaitMs: 2_000 } });
    alice = seedAccount(gateway.accounts);
  });

  afterEach(async () => {
    await gateway.close();
  });

  it('replays the first response for the same key and body, without running it again', async () => {
    const first = await createKey(alice.keys.test.secret, 'idem-1').expect(201);

    const second = await createKey(alice.keys.test.secret, 'idem-1').expect(201);

    expect(second.body).toEqual(first.body);
    expect(second.body.secret).toMatch(/^svc_test_/);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(gateway.accounts.calls(CreateApiKey)).toHaveLength(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    await createKey(alice.keys.test.secret, 'idem-1', { name: 'ci' }).expect(201);

    const res = await createKey(alice.keys.test.secret, 'idem-1', { name: 'deploy' }).expect(422);

    expect(res.body.error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(gateway.accounts.calls(CreateApiKey)).toHaveLength(1);
  });

  it('makes a concurrent request with the same key wait for the first, then replays it', async () => {
    let deliver = (): void => undefined;
    gateway.accounts.hold(CreateApiKey, new Promise<void>((resolve) => (deliver = resolve)));

    const both = Promise.all([
      createKey(alice.keys.test.secret, 'idem-2'),
      createKey(alice.keys.test.secret, 'idem-2'),
    ]);
    setTimeout(() => deliver(), 150);
    const [a, b] = await both;

    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body).toEqual(b.body);
    expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].filter(Boolean)).toEqual([
      'true',
    ]);
    expect(gateway.accounts.calls(CreateApiKey)).toHaveLength(1);
  });

  it('answers 409 idempotency_key_in_use when the first request outlasts the wait', async () => {
    await gateway.close();
    gateway = await startTestGateway({ tuning: { idempotencyWaitMs: 100 } });
    alice = seedAccount(gateway.accounts);
    let deliver = (): void => undefined;
    gateway.accounts.hold(CreateApiKey, new Promise<void>((resolve) => (deliver = resolve)));

    const first = createKey(alice.keys.test.secret, 'idem-3').then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await createKey(alice.keys.test.secret, 'idem-3');
    deliver();

    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('idempotency_key_in_use');
    expect((await first).status).toBe(201);
  });

  it('does not keep a 5xx: a retry with the same key runs again', async () => {
    gateway.accounts.failNext(CreateApiKey, { code: 'service_unavailable', message: 'No answer in time' });
    await createKey(alice.keys.test.secret, 'idem-4').expect(503);

    const retry = await createKey(alice.keys.test.secret, 'idem-4').expect(201);

    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(gateway.accounts.calls(CreateApiKey)).toHaveLength(2);
  });

  describe('a request the services answer after COMMAND_TIMEOUT_MS', () => {
    const TIMEOUT_MS = 300;
    const createAccount = (key?: string) => {
      const req = request(gateway.url).post('/admin/v1/accounts').set(bearer(TEST_ADMIN_TOKEN));
      return (key ? req.set('Idempotency-Key', key) : req).send({ handle: '@late', type: 'personal' });
    };
    /**
     * account-service answers `contract` only after `replyAfterMs` (or when released). The gateway
     * answers 503 at TIMEOUT_MS and takes a reply until about 2 × TIMEOUT_MS: 1.5 × is late but taken.
     */
    const slowAccountService = async (
      contract: CommandContract,
      replyAfterMs: number,
      idempotencyWaitMs = 2_000,
    ) => {
      await gateway.close();
      gateway = await startTestGateway({
        env: { COMMAND_TIMEOUT_MS: String(TIMEOUT_MS) },
        tuning: { idempotencyWaitMs },
      });
      alice = seedAccount(gateway.accounts);
      let release = (): void => undefined;
      const replied = new Promise<void>((resolve) => {
        release = resolve;
        setTimeout(resolve, replyAfterMs).unref();
      });
      gateway.accounts.hold(contract, replied);
      return { replied, release };
    };

    it('answers 503 in time, then replays the late creation, secrets included, to a retry with the key', async () => {
      const { replied } = await slowAccountService(CreateAccount, 1.5 * TIMEOUT_MS);
      let lateReplyCame = false;
      void replied.then(() => (lateReplyCame = true));

      const first = await createAccount('idem-late').expect(503);
      expect(lateReplyCame).toBe(false);
      expect(first.body.error).toMatchObject({ code: 'service_unavailable', reason: 'deadline_exceeded' });
      await replied;
      const retry = await createAccount('idem-late').expect(201);

      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body.account.handle).toBe('@late');
      expect(retry.body.decryption_key).toMatch(/^dk1_/);
      expect(retry.body.api_keys.test.secret).toMatch(/^svc_test_/);
      expect(retry.body.api_keys.live.secret).toMatch(/^svc_live_/);
      expect(gateway.accounts.calls(CreateAccount)).toHaveLength(1);
    });

    it('tells a retry that outwaits the late window to retry again (503), not that the key is in use', async () => {
      const { replied, release } = await slowAccountService(CreateAccount, 60_000, 50);

      await createAccount('idem-wait').expect(503);
      const early = await createAccount('idem-wait').expect(503);
      expect(early.headers['retry-after']).toBe('1');
      release();
      await replied;
      const retry = await createAccount('idem-wait').expect(201);

      expect(early.body.error).toMatchObject({ code: 'service_unavailable', reason: 'deadline_exceeded' });
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(gateway.accounts.calls(CreateAccount)).toHaveLength(1);
    });

    it('replays a late answer with the status its handler set (a held transfer: 202)', async () => {
      await slowAccountService(CreateAccount, 0);
      const held = {
        transaction_id: 'atx_late',
        status: 'pending_approval',
        agent: '@alice/bot',
        to: '@bob',
        asset: 'USDC',
        requested_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      };
      gateway.bus.registerCommand(CreateTransfer.topic, async (data) => {
        // After the request's 503, within the late window (as long again).
        await new Promise((resolve) => setTimeout(resolve, 1.5 * TIMEOUT_MS));
        const cause = EnvelopeMeta.parse(data);
        return createEnvelope(`${CreateTransfer.topic}.reply`, 1, ok({ kind: 'held', transaction: held }), {
          ...contextFrom(cause),
        });
      });
      const transfer = () =>
        request(gateway.url)
          .post('/v1/transfers')
          .set(bearer(alice.keys.test.secret))
          .set('Idempotency-Key', 'idem-held')
          .send({ to: '@bob', amount: '5' });

      await transfer().expect(503);
      await new Promise((resolve) => setTimeout(resolve, 2 * TIMEOUT_MS));
      const retry = await transfer().expect(202);

      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(held);
    });

    it('frees the key when no answer comes within the late window either: the retry runs again', async () => {
      const { release } = await slowAccountService(CreateApiKey, 60_000);

      await createKey(alice.keys.test.secret, 'idem-never').expect(503);
      await new Promise((resolve) => setTimeout(resolve, 2 * TIMEOUT_MS + 200));
      gateway.accounts.hold(CreateApiKey, Promise.resolve());
      const retry = await createKey(alice.keys.test.secret, 'idem-never').expect(201);
      release();

      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect(gateway.accounts.calls(CreateApiKey)).toHaveLength(2);
    });

    it('waits no longer without a key: the 503 comes before the late reply', async () => {
      const { replied } = await slowAccountService(CreateAccount, 1.5 * TIMEOUT_MS);
      let lateReplyCame = false;
      void replied.then(() => (lateReplyCame = true));

      const res = await createAccount().expect(503);

      expect(lateReplyCame).toBe(false);
      expect(res.body.error).toMatchObject({ code: 'service_unavailable', reason: 'deadline_exceeded' });
      await replied;
    });
  });

  it('does not keep a request that failed validation: the corrected one may use the same key', async () => {
    await createKey(alice.keys.test.secret, 'idem-5', { name: '' }).expect(400);

    await createKey(alice.keys.test.secret, 'idem-5', { name: 'fixed' }).expect(201);
  });

  it('keeps and replays a domain error', async () => {
    const admin = (key: string) =>
      request(gateway.url)
        .post('/admin/v1/accounts')
        .set(bearer(TEST_ADMIN_TOKEN))
        .set('Idempotency-Key', key)
        .send({ handle: '@alice', type: 'personal' });

    const first = await admin('idem-6').expect(409);
    const second = await admin('idem-6').expect(409);

    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(gateway.accounts.calls(CreateAccount)).toHaveLength(1);
  });

  it('scopes keys per account and per environment', async () => {
    const bob = seedAccount(gateway.accounts, '@bob');

    await createKey(alice.keys.test.secret, 'shared').expect(201);
    const otherAccount = await createKey(bob.keys.test.secret, 'shared').expect(201);
    const otherEnvironment = await createKey(alice.keys.live.secret, 'shared').expect(201);

    expect(otherAccount.headers['idempotent-replayed']).toBeUndefined();
    expect(otherEnvironment.headers['idempotent-replayed']).toBeUndefined();
    expect(otherEnvironment.body.environment).toBe('live');
    expect(gateway.accounts.calls(CreateApiKey)).toHaveLength(3);
  });

  it('rejects a malformed key with 400 naming the header', async () => {
    const res = await createKey(alice.keys.test.secret, 'k'.repeat(256)).expect(400);

    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'Idempotency-Key' });
  });

  it('leaves requests without the header alone', async () => {
    await request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(alice.keys.test.secret))
      .send({ name: 'ci' })
      .expect(201);
    await request(gateway.url)
      .post('/v1/api-keys')
      .set(bearer(alice.keys.test.secret))
      .send({ name: 'ci' })
      .expect(201);

    expect(gateway.accounts.calls(CreateApiKey)).toHaveLength(2);
  });
});
