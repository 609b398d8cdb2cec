import { type ApiKey, RecordApiKeyUsage } from '@cts/contracts';
import request from 'supertest';
import { ApiKeyUsage } from './api-key-usage';
import {
  bearer,
  seedAccount,
  type SeededAccount,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway';

describe('API key usage', () => {
  let gateway: TestGateway;
  let alice: SeededAccount;

  const call = (secret: string) =>
    request(gateway.url).get('/v1/accounts/me').set(bearer(secret)).expect(200);
  const usageOf = (gw: TestGateway) => gw.app.get(ApiKeyUsage);
  const recorded = () =>
    gateway.accounts
      .calls(RecordApiKeyUsage)
      .flatMap((e) => (e.payload as { usages: { key_id: string; requests: number }[] }).usages);

  beforeEach(async () => {
    gateway = await startTestGateway();
    alice = seedAccount(gateway.accounts);
  });

  afterEach(async () => {
    await gateway.close();
  });

  it('counts every request per key and flushes the counts with their last use', async () => {
    await call(alice.keys.test.secret);
    await call(alice.keys.test.secret);
    await call(alice.keys.live.secret);

    await usageOf(gateway).flush();

    expect(recorded()).toEqual(
      expect.arrayContaining([
        { key_id: alice.keys.test.keyId, requests: 2, last_used_at: expect.any(String) },
        { key_id: alice.keys.live.keyId, requests: 1, last_used_at: expect.any(String) },
      ]),
    );
    await usageOf(gateway).flush();
    expect(gateway.accounts.calls(RecordApiKeyUsage)).toHaveLength(1);
  });

  it('lists exact counts, adding those not flushed yet (the listing request included)', async () => {
    await call(alice.keys.test.secret);
    await usageOf(gateway).flush();
    await call(alice.keys.test.secret);

    const res = await request(gateway.url)
      .get('/v1/api-keys')
      .set(bearer(alice.keys.test.secret))
      .expect(200);

    const keys = (res.body as { api_keys: ApiKey[] }).api_keys;
    const key = keys.find((k) => k.key_id === alice.keys.test.keyId);
    expect(key?.request_count).toBe(3);
    expect(Date.parse(key?.last_used_at ?? '')).toBeGreaterThan(Date.now() - 10_000);
    const live = await request(gateway.url)
      .get('/v1/api-keys')
      .set(bearer(alice.keys.live.secret))
      .expect(200);
    const unused = (live.body as { api_keys: ApiKey[] }).api_keys.find(
      (k) => k.key_id === alice.keys.live.keyId,
    );
    // Only the listing request itself, not yet flushed.
    expect(unused).toMatchObject({ request_count: 1 });
  });

  it('never sends the same counts twice when two replicas flush at once', async () => {
    const replica = await startTestGateway({
      bus: gateway.bus,
      cache: gateway.cache,
      accounts: gateway.accounts,
    });
    try {
      for (let i = 0; i < 5; i++) {
        await call(alice.keys.test.secret);
        await request(replica.url).get('/v1/accounts/me').set(bearer(alice.keys.test.secret)).expect(200);
      }

      await Promise.all([usageOf(gateway).flush(), usageOf(replica).flush(), usageOf(gateway).flush()]);

      expect(recorded().reduce((sum, u) => sum + u.requests, 0)).toBe(10);
    } finally {
      await replica.close();
    }
  });

  it('keeps the counts for the next flush when account-service does not take them', async () => {
    await call(alice.keys.test.secret);
    gateway.accounts.failNext(RecordApiKeyUsage, {
      code: 'service_unavailable',
      message: 'No answer in time',
    });
    await usageOf(gateway).flush();

    await usageOf(gateway).flush();

    expect(gateway.accounts.calls(RecordApiKeyUsage)).toHaveLength(2);
    expect(gateway.accounts.keys.get(alice.keys.test.keyId)?.key.request_count).toBe(1);
  });

  it('answers without waiting for the count: one the cache refused is lost, not the request', async () => {
    const counting = jest
      .spyOn(gateway.cache, 'hashSetAndIncrement')
      .mockRejectedValueOnce(new Error('cache unavailable'));

    await call(alice.keys.test.secret);
    await call(alice.keys.test.secret);
    await usageOf(gateway).flush();

    expect(counting).toHaveBeenCalledTimes(2);
    expect(recorded()).toEqual([
      { key_id: alice.keys.test.keyId, requests: 1, last_used_at: expect.any(String) },
    ]);
  });

  it('flushes what is left when the gateway closes', async () => {
    const closing = await startTestGateway({
      bus: gateway.bus,
      cache: gateway.cache,
      accounts: gateway.accounts,
    });
    await request(closing.url).get('/v1/accounts/me').set(bearer(alice.keys.live.secret)).expect(200);

    await closing.close();

    expect(recorded()).toEqual([
      { key_id: alice.keys.live.keyId, requests: 1, last_used_at: expect.any(String) },
    ]);
  });

  it('flushes on its own every interval', async () => {
    const timed = await startTestGateway({
      bus: gateway.bus,
      cache: gateway.cache,
      accounts: gateway.accounts,
      tuning: { usageFlushIntervalMs: 50 },
    });
    try {
      await request(timed.url).get('/v1/accounts/me').set(bearer(alice.keys.live.secret)).expect(200);

      await new Promise((resolve) => setTimeout(resolve, 200));

      expect(gateway.accounts.keys.get(alice.keys.live.keyId)?.key.request_count).toBe(1);
    } finally {
      await timed.close();
    }
  });
});
