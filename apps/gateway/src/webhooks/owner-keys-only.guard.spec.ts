import { CreateWebhook } from '@cts/contracts';
import { InProcessBus } from '@cts/messaging';
import request from 'supertest';
import { bearer, seedAccount, startTestGateway, type TestGateway } from '../testing/test-gateway';
import { FakeWebhookDispatcher } from './fake-webhook-dispatcher';

describe("/v1/webhooks with an agent's key", () => {
  let gateway: TestGateway;
  let dispatcher: FakeWebhookDispatcher;

  beforeEach(async () => {
    const bus = new InProcessBus();
    dispatcher = new FakeWebhookDispatcher(bus);
    gateway = await startTestGateway({ bus });
  });

  afterEach(async () => {
    await gateway.close();
  });

  const routes: [method: 'get' | 'post' | 'patch' | 'delete', path: string, body: object | null][] = [
    ['post', '/v1/webhooks', { url: 'https://hooks.example.com/cts', events: ['transfer.confirmed'] }],
    ['get', '/v1/webhooks', null],
    ['get', '/v1/webhooks/wh_1', null],
    ['patch', '/v1/webhooks/wh_1', { disabled: true }],
    ['post', '/v1/webhooks/wh_1/rotate-secret', null],
    ['post', '/v1/webhooks/wh_1/test', null],
    ['get', '/v1/webhooks/wh_1/deliveries', null],
    ['post', '/v1/webhooks/wh_1/replay/evt_1', null],
    ['delete', '/v1/webhooks/wh_1', null],
  ];

  it.each(routes)(
    'refuses %s %s with 403 forbidden: its owner manages the webhooks',
    async (method, path, body) => {
      seedAccount(gateway.accounts, '@alice');
      const agent = seedAccount(gateway.accounts, '@alice/bot', { type: 'agent' });
      const req = request(gateway.url)[method](path).set(bearer(agent.keys.test.secret));
      const res = await (body ? req.send(body) : req);

      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({
        code: 'forbidden',
        message:
          "An agent's key cannot manage webhooks: its owner's subscriptions receive the agent's events",
      });
      expect(dispatcher.calls(CreateWebhook)).toHaveLength(0);
    },
  );

  it('checks the key first: no key is 401, and an owner’s key creates the subscription', async () => {
    const unauthenticated = await request(gateway.url)
      .post('/v1/webhooks')
      .send({ url: 'https://hooks.example.com/cts', events: ['transfer.confirmed'] });
    const owner = seedAccount(gateway.accounts, '@alice');
    await request(gateway.url)
      .post('/v1/webhooks')
      .set(bearer(owner.keys.test.secret))
      .send({ url: 'https://hooks.example.com/cts', events: ['transfer.confirmed'] })
      .expect(201);

    expect(unauthenticated.status).toBe(401);
    expect(dispatcher.calls(CreateWebhook)).toHaveLength(1);
  });
});
