import { GetAccount, RotateWebhookSecret, SendTestWebhook, UpdateWebhook } from '@cts/contracts';
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
import { type WebhookWithSecret } from './webhooks.schemas';

describe('/v1/webhooks/{webhook_id}: read, update, rotate the secret, test', () => {
  let gateway: TestGateway;
  let dispatcher: FakeWebhookDispatcher;
  let alice: SeededAccount;
  let hook: WebhookWithSecret;

  beforeEach(async () => {
    const bus = new InProcessBus();
    dispatcher = new FakeWebhookDispatcher(bus);
    gateway = await startTestGateway({ bus });
    alice = seedAccount(gateway.accounts);
    hook = (
      await request(gateway.url)
        .post('/v1/webhooks')
        .set(bearer(alice.keys.test.secret))
        .send({ url: 'https://hooks.example.com/a', events: ['transfer.confirmed'] })
        .expect(201)
    ).body as WebhookWithSecret;
  });

  afterEach(async () => {
    await gateway.close();
  });

  const path = (suffix = '') => `/v1/webhooks/${hook.webhook_id}${suffix}`;

  it('reads one subscription, without its secret; another environment’s key gets 404 webhook_not_found', async () => {
    const res = await request(gateway.url).get(path()).set(bearer(alice.keys.test.secret)).expect(200);
    const live = await request(gateway.url).get(path()).set(bearer(alice.keys.live.secret)).expect(404);

    const { secret: _secret, ...withoutSecret } = hook;
    expect(res.body).toEqual(withoutSecret);
    expect(JSON.stringify(res.body)).not.toContain(hook.secret);
    expect(live.body.error).toMatchObject({ code: 'webhook_not_found', request_id: expect.any(String) });
  });

  it('updates url, events and disabled, passing only what was given', async () => {
    const res = await request(gateway.url)
      .patch(path())
      .set(bearer(alice.keys.test.secret))
      .send({ url: 'https://hooks.example.com/b', disabled: true })
      .expect(200);

    expect(res.body).toMatchObject({
      url: 'https://hooks.example.com/b',
      events: ['transfer.confirmed'],
      disabled: true,
      disabled_reason: 'manual',
    });
    expect(dispatcher.calls(UpdateWebhook)[0]?.payload).toEqual({
      account_id: alice.accountId,
      environment: 'test',
      webhook_id: hook.webhook_id,
      url: 'https://hooks.example.com/b',
      disabled: true,
    });
    const enabled = await request(gateway.url)
      .patch(path())
      .set(bearer(alice.keys.test.secret))
      .send({ disabled: false, events: ['transfer.failed', 'webhook.endpoint.disabled'] })
      .expect(200);
    expect(enabled.body).toMatchObject({
      disabled: false,
      disabled_reason: null,
      events: ['transfer.failed', 'webhook.endpoint.disabled'],
    });
  });

  it.each([
    ['an empty body', {}, undefined],
    ['an http:// URL', { url: 'http://hooks.example.com/' }, 'url'],
    ['a URL with a NUL', { url: 'https://hooks.example.com/#\u0000' }, 'url'],
    ['an unknown event type', { events: ['transfer.lost'] }, 'events.0'],
    ['no event type', { events: [] }, 'events'],
    ['a non-boolean disabled', { disabled: 'yes' }, 'disabled'],
    ['an unknown field', { secret: 'mine' }, 'secret'],
  ])('refuses %s with 400 invalid_request, without asking the dispatcher', async (_case, body, param) => {
    const res = await request(gateway.url)
      .patch(path())
      .set(bearer(alice.keys.test.secret))
      .send(body)
      .expect(400);

    expect(res.body.error.code).toBe('invalid_request');
    if (param !== undefined) {
      expect(res.body.error.param).toBe(param);
    }
    expect(dispatcher.calls(UpdateWebhook)).toHaveLength(0);
  });

  it('says a URL over 2048 characters is too long on update too', async () => {
    const res = await request(gateway.url)
      .patch(path())
      .set(bearer(alice.keys.test.secret))
      .send({ url: `https://hooks.example.com/${'a'.repeat(2090)}` })
      .expect(400);
    expect(res.body.error).toMatchObject({
      code: 'invalid_request',
      param: 'url',
      message: expect.stringContaining('at most 2048 characters'),
    });
  });

  it('passes on the dispatcher’s refusal of a private target on update as 400 on url', async () => {
    dispatcher.failNext(UpdateWebhook, {
      code: 'invalid_request',
      message: 'url host internal.example.com resolves to a private address',
      param: 'url',
    });
    const res = await request(gateway.url)
      .patch(path())
      .set(bearer(alice.keys.test.secret))
      .send({ url: 'https://internal.example.com/' })
      .expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'url' });
  });

  it('rotates the secret: the new one is shown once, crossed the bus only encrypted, and differs', async () => {
    const res = await request(gateway.url)
      .post(path('/rotate-secret'))
      .set(bearer(alice.keys.test.secret))
      .expect(200);

    const rotated = res.body as WebhookWithSecret & { previous_secret_expires_at: string };
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(rotated.secret).toBe(dispatcher.webhooks.get(hook.webhook_id)?.secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect(JSON.stringify(dispatcher.replies)).not.toContain(rotated.secret);
    expect(dispatcher.calls(RotateWebhookSecret)[0]?.payload).toMatchObject({
      webhook_id: hook.webhook_id,
      recipient_key: expect.any(String),
    });
    const missing = await request(gateway.url)
      .post('/v1/webhooks/wh_missing/rotate-secret')
      .set(bearer(alice.keys.test.secret))
      .expect(404);
    expect(missing.body.error.code).toBe('webhook_not_found');
  });

  it('sends a webhook.test delivery (202) in the name of the account’s handle', async () => {
    const res = await request(gateway.url)
      .post(path('/test'))
      .set(bearer(alice.keys.test.secret))
      .expect(202);

    expect(res.body).toMatchObject({ webhook_id: hook.webhook_id, event: 'webhook.test', status: 'pending' });
    expect(gateway.accounts.calls(GetAccount).at(-1)?.payload).toMatchObject({ account_id: alice.accountId });
    expect(dispatcher.calls(SendTestWebhook)[0]?.payload).toEqual({
      account_id: alice.accountId,
      environment: 'test',
      webhook_id: hook.webhook_id,
      account_handle: '@alice',
    });
    const missing = await request(gateway.url)
      .post('/v1/webhooks/wh_missing/test')
      .set(bearer(alice.keys.test.secret))
      .expect(404);
    expect(missing.body.error.code).toBe('webhook_not_found');
  });
});
