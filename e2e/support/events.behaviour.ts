import { eventually } from '@cts/testing';
import { http } from './http';
import { type StackUnderTest } from './foundation.behaviour';
import { account, fund } from './transfers.behaviour';

interface Listed {
  events: Record<string, unknown>[];
  has_more: boolean;
}

/** Issue 16 through HTTP, the same in both modes: the events API and managing a subscription. */
export function eventsBehaviour(stack: () => StackUnderTest): void {
  it('lists the account’s events of the key’s environment, each as its deliveries carry it, with cursor pages', async () => {
    const [alice, bob] = [await account(stack()), await account(stack())];
    await fund(stack(), alice, '10');
    for (const amount of ['1.25', '2.5']) {
      const sent = await http(stack().baseUrl, 'POST', '/v1/transfers', {
        token: alice.token,
        body: { to: bob.account.handle, amount },
      });
      expect(sent.status).toBe(200);
    }
    const list = async (token: string, query = '') =>
      (await http(stack().baseUrl, 'GET', `/v1/events${query}`, { token })).body as Listed;

    await eventually(
      async () => expect((await list(alice.token, '?type=transfer.confirmed')).events).toHaveLength(2),
      60_000,
      250,
    );
    const all = await list(alice.token);
    const confirmed = await list(alice.token, '?type=transfer.confirmed');
    expect(confirmed.events[0]).toMatchObject({
      event: 'transfer.confirmed',
      account: alice.account.handle,
      direction: 'sent',
      counterparty: bob.account.handle,
      confidential: true,
      event_id: expect.stringMatching(/^evt_/),
      created_at: expect.any(String),
    });
    expect(JSON.stringify(all)).not.toMatch(/"1\.25"|"2\.5"/);
    const created = all.events.map((e) => String(e.created_at));
    expect(created).toEqual([...created].sort().reverse());

    const first = await list(alice.token, '?limit=1&type=transfer.confirmed');
    const second = await list(
      alice.token,
      `?limit=1&type=transfer.confirmed&starting_after=${String(first.events[0]?.event_id)}`,
    );
    expect(first.has_more).toBe(true);
    expect([...first.events, ...second.events]).toEqual(confirmed.events);

    const one = await http(stack().baseUrl, 'GET', `/v1/events/${String(first.events[0]?.event_id)}`, {
      token: alice.token,
    });
    expect(one).toMatchObject({ status: 200, body: first.events[0] });
    const asBob = await http(stack().baseUrl, 'GET', `/v1/events/${String(first.events[0]?.event_id)}`, {
      token: bob.token,
    });
    expect(asBob.body).toMatchObject({ direction: 'received', account: bob.account.handle });
    const live = await http(stack().baseUrl, 'GET', '/v1/events', { token: alice.api_keys.live.secret });
    expect(live.body).toEqual({ events: [], has_more: false });
    const liveOne = await http(stack().baseUrl, 'GET', `/v1/events/${String(first.events[0]?.event_id)}`, {
      token: alice.api_keys.live.secret,
    });
    expect(liveOne).toMatchObject({ status: 404, body: { error: { code: 'event_not_found' } } });
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?type=transfer.lost',
      '?created_after=soon',
      '?starting_after=evt_x',
    ]) {
      const bad = await http(stack().baseUrl, 'GET', `/v1/events${query}`, { token: alice.token });
      expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    }
  }, 120_000);

  it('reads, updates, disables, rotates, tests and caps subscriptions; a refused URL names no address', async () => {
    const alice = await account(stack());
    const url = 'https://93.184.215.14/hooks';
    const created = await http(stack().baseUrl, 'POST', '/v1/webhooks', {
      token: alice.token,
      body: { url, events: ['transfer.confirmed'] },
    });
    expect(created.status).toBe(201);
    const hook = created.body as { webhook_id: string; secret: string };
    const path = `/v1/webhooks/${hook.webhook_id}`;

    const got = await http(stack().baseUrl, 'GET', path, { token: alice.token });
    expect(got).toMatchObject({ status: 200, body: { url, disabled: false, disabled_reason: null } });
    expect(JSON.stringify(got.body)).not.toContain(hook.secret);
    const patched = await http(stack().baseUrl, 'PATCH', path, {
      token: alice.token,
      body: { disabled: true, events: ['transfer.confirmed', 'webhook.endpoint.disabled'] },
    });
    expect(patched).toMatchObject({
      status: 200,
      body: {
        disabled: true,
        disabled_reason: 'manual',
        events: ['transfer.confirmed', 'webhook.endpoint.disabled'],
      },
    });
    const refused = await http(stack().baseUrl, 'PATCH', path, {
      token: alice.token,
      body: { url: 'https://169.254.169.254/x' },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', param: 'url' } },
    });
    const empty = await http(stack().baseUrl, 'PATCH', path, { token: alice.token, body: {} });
    expect(empty.status).toBe(400);

    const rotated = await http(stack().baseUrl, 'POST', `${path}/rotate-secret`, { token: alice.token });
    expect(rotated).toMatchObject({
      status: 200,
      body: { webhook_id: hook.webhook_id, secret: expect.stringMatching(/^whsec_/) },
    });
    expect((rotated.body as { secret: string }).secret).not.toBe(hook.secret);

    const tested = await http(stack().baseUrl, 'POST', `${path}/test`, { token: alice.token });
    expect(tested).toMatchObject({
      status: 202,
      body: { webhook_id: hook.webhook_id, event: 'webhook.test' },
    });
    const testEvent = await http(stack().baseUrl, 'GET', '/v1/events?type=webhook.test', {
      token: alice.token,
    });
    expect((testEvent.body as Listed).events).toMatchObject([
      { event: 'webhook.test', account: alice.account.handle, webhook_id: hook.webhook_id },
    ]);

    const other = await account(stack());
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['POST', '/rotate-secret'],
      ['POST', '/test'],
    ] as const) {
      const foreign = await http(stack().baseUrl, method, `${path}${suffix}`, {
        token: other.token,
        ...(method === 'PATCH' ? { body: { disabled: false } } : {}),
      });
      expect(foreign).toMatchObject({ status: 404, body: { error: { code: 'webhook_not_found' } } });
    }
  }, 120_000);
}
