import { type EventResource, ListEvents } from '@cts/contracts';
import { InProcessBus } from '@cts/messaging';
import request from 'supertest';
import { FakeWebhookDispatcher } from '../webhooks/fake-webhook-dispatcher';
import { type EventList } from './events.schemas';
import {
  bearer,
  seedAccount,
  type SeededAccount,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway';

const event = (n: number, type = 'transfer.confirmed'): EventResource => ({
  event_id: `evt_${String(n).padStart(3, '0')}`,
  event: type,
  account: '@alice',
  timestamp: '2026-01-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  transfer_id: `tr_${n}`,
});

describe('/v1/events', () => {
  let gateway: TestGateway;
  let dispatcher: FakeWebhookDispatcher;
  let alice: SeededAccount;

  beforeEach(async () => {
    const bus = new InProcessBus();
    dispatcher = new FakeWebhookDispatcher(bus);
    gateway = await startTestGateway({ bus });
    alice = seedAccount(gateway.accounts);
    dispatcher.events.set(`${alice.accountId}:test`, [event(3), event(2, 'transfer.initiated'), event(1)]);
  });

  afterEach(async () => {
    await gateway.close();
  });

  const get = (query: string, token = alice.keys.test.secret) =>
    request(gateway.url).get(`/v1/events${query}`).set(bearer(token));

  it('lists the account’s events of the key’s environment: 20 by default, { events, has_more }', async () => {
    const res = await get('').expect(200);
    const live = await get('', alice.keys.live.secret).expect(200);

    expect(res.body).toEqual({
      events: [event(3), event(2, 'transfer.initiated'), event(1)],
      has_more: false,
    });
    expect(live.body).toEqual({ events: [], has_more: false });
    expect(dispatcher.calls(ListEvents).map((c) => c.payload)).toEqual([
      { account_id: alice.accountId, environment: 'test', limit: 20, types: [] },
      { account_id: alice.accountId, environment: 'live', limit: 20, types: [] },
    ]);
  });

  it('pages with limit and starting_after, and filters by repeated type and creation time', async () => {
    const first = await get('?limit=2').expect(200);
    const second = await get('?limit=2&starting_after=evt_002').expect(200);
    const filtered = await get(
      '?type=transfer.initiated&type=webhook.test&created_after=2025-12-31T00:00:00Z&created_before=2026-01-02T01:00:00%2B01:00',
    ).expect(200);

    expect(first.body).toMatchObject({ has_more: true });
    expect((first.body as EventList).events.map((e) => e.event_id)).toEqual(['evt_003', 'evt_002']);
    expect(second.body).toEqual({ events: [event(1)], has_more: false });
    expect((filtered.body as EventList).events.map((e) => e.event_id)).toEqual(['evt_002']);
    expect(dispatcher.calls(ListEvents)[2]?.payload).toEqual({
      account_id: alice.accountId,
      environment: 'test',
      limit: 20,
      types: ['transfer.initiated', 'webhook.test'],
      created_after: '2025-12-31T00:00:00.000Z',
      created_before: '2026-01-02T00:00:00.000Z',
    });
  });

  it.each([
    ['limit', 'limit=0'],
    ['limit', 'limit=101'],
    ['limit', 'limit=ten'],
    ['type', 'type=transfer.lost'],
    ['created_after', 'created_after=yesterday'],
    ['created_before', 'created_before=2026-13-01T00:00:00Z'],
    ['page', 'page=2'],
  ])('refuses a bad %s with 400 invalid_request naming it', async (param, query) => {
    const res = await get(`?${query}`).expect(400);
    expect(res.body.error).toMatchObject({
      code: 'invalid_request',
      param: expect.stringMatching(new RegExp(`^${param}`)),
    });
  });

  it('answers 400 for a starting_after that is not one of the account’s events', async () => {
    const res = await get('?starting_after=evt_nope').expect(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'starting_after' });
  });

  it('returns one event, and 404 event_not_found for an unknown or other environment’s id', async () => {
    const one = await get('/evt_002').expect(200);
    const live = await get('/evt_002', alice.keys.live.secret).expect(404);
    const unknown = await get('/evt_nope').expect(404);

    expect(one.body).toEqual(event(2, 'transfer.initiated'));
    expect(live.body.error.code).toBe('event_not_found');
    expect(unknown.body.error.code).toBe('event_not_found');
  });

  it('needs an API key', async () => {
    await request(gateway.url).get('/v1/events').expect(401);
  });
});
