import {
  CreateWebhook,
  DeleteWebhook,
  ListWebhookDeliveries,
  ListWebhooks,
  ReplayWebhookEvent,
} from '@cts/contracts';
import { InProcessBus } from '@cts/messaging';
import request from 'supertest';
import {
  bearer,
  seedAccount,
  type SeededAccount,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway';
import { FakeWebhookDispatcher } from './fake-webhook-dispatcher';
import { type WebhookDeliveryList, type WebhookWithSecret } from './webhooks.schemas';

describe('/v1/webhooks', () => {
  let gateway: TestGateway;
  let dispatcher: FakeWebhookDispatcher;
  let alice: SeededAccount;

  beforeEach(async () => {
    const bus = new InProcessBus();
    dispatcher = new FakeWebhookDispatcher(bus);
    gateway = await startTestGateway({ bus });
    alice = seedAccount(gateway.accounts);
  });

  afterEach(async () => {
    await gateway.close();
  });

  const create = (token: string, body: object) =>
    request(gateway.url).post('/v1/webhooks').set(bearer(token)).send(body);

  it('creates a subscription in the key’s account and environment and shows its secret once', async () => {
    const res = await create(alice.keys.live.secret, {
      url: 'https://hooks.example.com/cts',
      events: ['transfer.confirmed'],
    }).expect(201);

    const created = res.body as WebhookWithSecret;
    expect(Object.keys(created).sort()).toEqual([
      'created_at',
      'disabled',
      'disabled_at',
      'disabled_reason',
      'events',
      'failing_since',
      'previous_secret_expires_at',
      'secret',
      'url',
      'webhook_id',
    ]);
    expect(created).toMatchObject({ disabled: false, disabled_reason: null });
    expect(created).toMatchObject({ url: 'https://hooks.example.com/cts', events: ['transfer.confirmed'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.secret).toBe(dispatcher.webhooks.get(created.webhook_id)?.secret);
    const [call] = dispatcher.calls(CreateWebhook);
    expect(call).toMatchObject({
      environment: 'live',
      account_id: alice.accountId,
      payload: {
        account_id: alice.accountId,
        environment: 'live',
        url: 'https://hooks.example.com/cts',
        recipient_key: expect.any(String),
      },
    });
    // The secret crossed the bus only encrypted to the request's one-time key.
    expect(JSON.stringify(dispatcher.replies)).not.toContain(created.secret);
    const list = await request(gateway.url)
      .get('/v1/webhooks')
      .set(bearer(alice.keys.live.secret))
      .expect(200);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
  });

  it.each([
    ['an http:// URL', { url: 'http://hooks.example.com/', events: ['transfer.confirmed'] }, 'url'],
    ['a relative URL', { url: '/hook', events: ['transfer.confirmed'] }, 'url'],
    ['no URL', { events: ['transfer.confirmed'] }, 'url'],
    ['a URL with a NUL', { url: 'https://hooks.example.com/\u0000', events: ['transfer.confirmed'] }, 'url'],
    [
      'a URL with an escape',
      { url: 'https://hooks.example.com/?\u001b[2J', events: ['transfer.confirmed'] },
      'url',
    ],
    [
      'an unknown event type',
      { url: 'https://hooks.example.com/', events: ['transfer.confirmed', 'transfer.lost'] },
      'events.1',
    ],
    ['no event type', { url: 'https://hooks.example.com/', events: [] }, 'events'],
    [
      'an unknown field',
      { url: 'https://hooks.example.com/', events: ['transfer.confirmed'], secret: 'mine' },
      'secret',
    ],
  ])(
    'refuses %s with 400 invalid_request naming the field, without asking the dispatcher',
    async (_case, body, param) => {
      const res = await create(alice.keys.test.secret, body).expect(400);

      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
      expect(dispatcher.calls(CreateWebhook)).toHaveLength(0);
    },
  );

  it('says a URL over 2048 characters is too long, not that it is not https://', async () => {
    const url = `https://hooks.example.com/${'a'.repeat(2090)}`;
    expect(url).toHaveLength(2116);

    const res = await create(alice.keys.test.secret, { url, events: ['transfer.confirmed'] }).expect(400);

    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'url' });
    expect(res.body.error.message).toContain('at most 2048 characters');
    expect(res.body.error.message).not.toContain('https://');
  });

  it('still says https:// for an http:// URL, whatever its case', async () => {
    for (const url of ['http://hooks.example.com/', 'HTTP://hooks.example.com/']) {
      const res = await create(alice.keys.test.secret, { url, events: ['transfer.confirmed'] }).expect(400);
      expect(res.body.error.message).toContain('must be an absolute https:// URL');
    }
    await create(alice.keys.test.secret, {
      url: 'HTTPS://hooks.example.com/upper',
      events: ['transfer.confirmed'],
    }).expect(201);
  });

  it('passes on the dispatcher’s refusal of a private target as 400 on url', async () => {
    dispatcher.failNext(CreateWebhook, {
      code: 'invalid_request',
      message: 'url must not point to a private address',
      param: 'url',
    });

    const res = await create(alice.keys.test.secret, {
      url: 'https://10.0.0.1/hook',
      events: ['transfer.confirmed'],
    }).expect(400);

    expect(res.body.error).toMatchObject({
      code: 'invalid_request',
      param: 'url',
      message: expect.stringContaining('private'),
    });
  });

  it('replays the first response to a create retried with the same Idempotency-Key', async () => {
    const body = { url: 'https://hooks.example.com/idem', events: ['transfer.failed'] };
    const first = await create(alice.keys.test.secret, body).set('Idempotency-Key', 'webhook-1').expect(201);
    const second = await create(alice.keys.test.secret, body).set('Idempotency-Key', 'webhook-1').expect(201);

    expect(second.body).toEqual(first.body);
    expect(dispatcher.calls(CreateWebhook)).toHaveLength(1);
  });

  it('lists the subscriptions of the key’s environment without secrets', async () => {
    const created = (
      await create(alice.keys.test.secret, {
        url: 'https://hooks.example.com/a',
        events: ['transfer.confirmed'],
      }).expect(201)
    ).body as WebhookWithSecret;

    const test = await request(gateway.url)
      .get('/v1/webhooks')
      .set(bearer(alice.keys.test.secret))
      .expect(200);
    const live = await request(gateway.url)
      .get('/v1/webhooks')
      .set(bearer(alice.keys.live.secret))
      .expect(200);

    const { secret: _secret, ...withoutSecret } = created;
    expect(test.body).toEqual({ webhooks: [withoutSecret] });
    expect(live.body).toEqual({ webhooks: [] });
    expect(dispatcher.calls(ListWebhooks).map((c) => c.payload)).toEqual([
      { account_id: alice.accountId, environment: 'test' },
      { account_id: alice.accountId, environment: 'live' },
    ]);
  });

  it('deletes a subscription with 204; an unknown or another account’s one is 404 webhook_not_found', async () => {
    const bob = seedAccount(gateway.accounts, '@bob');
    const mine = (
      await create(alice.keys.test.secret, {
        url: 'https://hooks.example.com/a',
        events: ['transfer.confirmed'],
      })
    ).body as WebhookWithSecret;
    const bobs = (
      await create(bob.keys.test.secret, {
        url: 'https://hooks.example.com/b',
        events: ['transfer.confirmed'],
      })
    ).body as WebhookWithSecret;

    const deleted = await request(gateway.url)
      .delete(`/v1/webhooks/${mine.webhook_id}`)
      .set(bearer(alice.keys.test.secret))
      .expect(204);
    const again = await request(gateway.url)
      .delete(`/v1/webhooks/${mine.webhook_id}`)
      .set(bearer(alice.keys.test.secret))
      .expect(404);
    const foreign = await request(gateway.url)
      .delete(`/v1/webhooks/${bobs.webhook_id}`)
      .set(bearer(alice.keys.test.secret))
      .expect(404);

    expect(deleted.text).toBe('');
    expect(again.body.error.code).toBe('webhook_not_found');
    expect(foreign.body.error.code).toBe('webhook_not_found');
    expect(dispatcher.calls(DeleteWebhook)[0]?.payload).toEqual({
      account_id: alice.accountId,
      environment: 'test',
      webhook_id: mine.webhook_id,
    });
    expect(dispatcher.webhooks.has(bobs.webhook_id)).toBe(true);
  });

  it('lists deliveries with a limit of 1..100 (20 by default) and an offset (0 by default)', async () => {
    const hook = (
      await create(alice.keys.test.secret, {
        url: 'https://hooks.example.com/a',
        events: ['transfer.confirmed'],
      })
    ).body as WebhookWithSecret;
    const path = `/v1/webhooks/${hook.webhook_id}/deliveries`;

    const res = await request(gateway.url).get(path).set(bearer(alice.keys.test.secret)).expect(200);
    await request(gateway.url).get(`${path}?limit=100`).set(bearer(alice.keys.test.secret)).expect(200);
    for (const [param, value] of [
      ['limit', '0'],
      ['limit', '101'],
      ['limit', 'ten'],
      ['limit', '-1'],
      ['offset', '-1'],
      ['offset', 'next'],
      ['offset', '1.5'],
    ]) {
      const bad = await request(gateway.url)
        .get(`${path}?${param}=${value}`)
        .set(bearer(alice.keys.test.secret))
        .expect(400);
      expect(bad.body.error).toMatchObject({ code: 'invalid_request', param });
    }
    const unknownQuery = await request(gateway.url)
      .get(`${path}?page=2`)
      .set(bearer(alice.keys.test.secret))
      .expect(400);

    expect(res.body).toMatchObject({ limit: 20, offset: 0, has_more: false });
    expect(res.body.deliveries).toHaveLength(3);
    expect(res.body.deliveries[0]).toMatchObject({
      webhook_id: hook.webhook_id,
      status: 'pending',
      retry_count: 0,
    });
    expect(unknownQuery.body.error.param).toBe('page');
    expect(dispatcher.calls(ListWebhookDeliveries).map((c) => [c.payload.limit, c.payload.offset])).toEqual([
      [20, 0],
      [100, 0],
    ]);
    const missing = await request(gateway.url)
      .get('/v1/webhooks/wh_missing/deliveries')
      .set(bearer(alice.keys.test.secret))
      .expect(404);
    expect(missing.body.error.code).toBe('webhook_not_found');
  });

  it('pages through the delivery log with has_more, showing each attempt but no response body', async () => {
    const hook = (
      await create(alice.keys.test.secret, {
        url: 'https://hooks.example.com/a',
        events: ['transfer.confirmed'],
      })
    ).body as WebhookWithSecret;
    const page = (query: string) =>
      request(gateway.url)
        .get(`/v1/webhooks/${hook.webhook_id}/deliveries?${query}`)
        .set(bearer(alice.keys.test.secret))
        .expect(200);

    const first = await page('limit=2');
    const second = await page('limit=2&offset=2');

    const firstPage = first.body as WebhookDeliveryList;
    expect(firstPage).toMatchObject({ limit: 2, offset: 0, has_more: true });
    expect(firstPage.deliveries.map((d) => d.event_id)).toEqual(['evt_listed_3', 'evt_listed_2']);
    expect(second.body).toMatchObject({ limit: 2, offset: 2, has_more: false });
    expect(second.body.deliveries[0]).toEqual({
      delivery_id: expect.stringMatching(/^dlv_/),
      webhook_id: hook.webhook_id,
      event_id: 'evt_listed_1',
      event: 'transfer.confirmed',
      status: 'succeeded',
      attempt_count: 2,
      retry_count: 1,
      response_status_code: 200,
      last_attempt_at: '2026-01-01T00:00:00.000Z',
      next_attempt_at: null,
      created_at: expect.any(String),
      failure_reason: null,
      attempts: [
        {
          attempt_number: 1,
          attempted_at: '2026-01-01T00:00:00.000Z',
          duration_ms: 12,
          response_status_code: 500,
          error: null,
        },
        {
          attempt_number: 2,
          attempted_at: '2026-01-01T00:00:00.000Z',
          duration_ms: 12,
          response_status_code: 200,
          error: null,
        },
      ],
    });
    expect(firstPage.deliveries[1]?.attempts[0]).toMatchObject({
      response_status_code: null,
      error: 'timeout',
    });
  });

  it('replays a stored event as a new delivery (202), 404 event_not_found otherwise', async () => {
    const hook = (
      await create(alice.keys.test.secret, {
        url: 'https://hooks.example.com/a',
        events: ['transfer.confirmed'],
      })
    ).body as WebhookWithSecret;

    const replayed = await request(gateway.url)
      .post(`/v1/webhooks/${hook.webhook_id}/replay/evt_known_1`)
      .set(bearer(alice.keys.test.secret))
      .expect(202);
    const unknown = await request(gateway.url)
      .post(`/v1/webhooks/${hook.webhook_id}/replay/evt_other`)
      .set(bearer(alice.keys.test.secret))
      .expect(404);
    const otherEnvironment = await request(gateway.url)
      .post(`/v1/webhooks/${hook.webhook_id}/replay/evt_known_1`)
      .set(bearer(alice.keys.live.secret))
      .expect(404);

    expect(replayed.body).toMatchObject({
      webhook_id: hook.webhook_id,
      event_id: 'evt_known_1',
      status: 'pending',
      delivery_id: expect.stringMatching(/^dlv_/),
    });
    expect(unknown.body.error.code).toBe('event_not_found');
    expect(otherEnvironment.body.error.code).toBe('webhook_not_found');
    expect(dispatcher.calls(ReplayWebhookEvent)[0]?.payload).toEqual({
      account_id: alice.accountId,
      environment: 'test',
      webhook_id: hook.webhook_id,
      event_id: 'evt_known_1',
    });
  });

  it('needs an API key', async () => {
    const res = await request(gateway.url).get('/v1/webhooks').expect(401);
    expect(res.body.error.code).toBe('unauthorized');
  });
});
