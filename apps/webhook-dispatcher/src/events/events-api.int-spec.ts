import {
  AgentTransactionPendingApproval,
  type EventResource,
  GetEvent,
  ListEvents,
  type RequestOf,
  TransferConfirmed,
  TransferInitiated,
} from '@cts/contracts';
import { eventually, generateTestCertificates } from '@cts/testing';
import { DispatcherHarness, testContext } from '../testing/dispatcher-harness';
import { approvalPayload, party, senderParty, transferPayload } from '../testing/event-factories';

type ListQuery = Omit<RequestOf<typeof ListEvents>, 'limit' | 'types'> & { limit?: number; types?: string[] };

describe('the events API: an account’s events of one environment, as its webhooks carry them', () => {
  let harness: DispatcherHarness;

  beforeAll(async () => {
    harness = await DispatcherHarness.start(generateTestCertificates(['receiver.test']));
  });

  afterAll(async () => {
    await harness.close();
  });

  const list = async (query: ListQuery): Promise<{ events: EventResource[]; has_more: boolean }> => {
    const listed = await harness.commands.send(ListEvents, { limit: 20, types: [], ...query }, testContext);
    if (!listed.ok) throw new Error(listed.error.message);
    return listed.value;
  };
  const ids = (page: { events: EventResource[] }) => page.events.map((e) => e.event_id);
  // Within retention: a transfer's events are kept and listed by the transfer's created_at.
  const createdNow = () => ({ created_at: new Date().toISOString() });

  it('returns exactly the payload the webhook delivery carried (same event_id, its created_at)', async () => {
    const { accountId, path } = harness.unique('exact');
    await harness.subscribe(accountId, path, ['transfer.confirmed']);
    harness.publish(
      TransferConfirmed,
      transferPayload({
        sender: senderParty(accountId, '@exact'),
        confidential: true,
        amount: '12.345678',
        ...createdNow(),
      }),
    );

    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(1), 10_000);
    const delivered = JSON.parse(harness.receiver.received(path)[0]?.body ?? '{}') as Record<string, unknown>;
    const page = await list({ account_id: accountId, environment: 'test' });
    const one = await harness.commands.send(
      GetEvent,
      { account_id: accountId, environment: 'test', event_id: String(delivered.event_id) },
      testContext,
    );

    expect(page).toEqual({ events: [delivered], has_more: false });
    expect(one).toEqual({ ok: true, value: page.events[0] });
    expect(JSON.stringify(page)).not.toContain('12.345678');
    expect(page.events[0]?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('lists events of the account (each from its point of view) whether or not it has webhooks', async () => {
    const { accountId: alice } = harness.unique('alice');
    const { accountId: bob } = harness.unique('bob');
    harness.publish(
      TransferConfirmed,
      transferPayload({
        sender: senderParty(alice, '@alice'),
        recipient: { account_id: bob, handle: '@bob', address: 'BobAddress', owner: null },
        ...createdNow(),
      }),
    );

    await eventually(async () =>
      expect((await list({ account_id: bob, environment: 'test' })).events).toHaveLength(1),
    );
    const [forAlice] = (await list({ account_id: alice, environment: 'test' })).events;
    const [forBob] = (await list({ account_id: bob, environment: 'test' })).events;
    expect(forAlice).toMatchObject({ account: '@alice', direction: 'sent', counterparty: '@bob' });
    expect(forBob).toMatchObject({ account: '@bob', direction: 'received', counterparty: '@alice' });
    expect(forBob?.event_id).toBe(forAlice?.event_id);
    expect(await list({ account_id: alice, environment: 'live' })).toEqual({ events: [], has_more: false });
    expect(
      await harness.commands.send(
        GetEvent,
        { account_id: alice, environment: 'live', event_id: forAlice?.event_id ?? '' },
        testContext,
      ),
    ).toMatchObject({ ok: false, error: { code: 'event_not_found' } });
    const { accountId: mallory } = harness.unique('mallory');
    expect(
      await harness.commands.send(
        GetEvent,
        { account_id: mallory, environment: 'test', event_id: forAlice?.event_id ?? '' },
        testContext,
      ),
    ).toMatchObject({ ok: false, error: { code: 'event_not_found' } });
  });

  it('pages newest first with limit and starting_after, filters by types and creation time', async () => {
    const { accountId } = harness.unique('pager');
    const sender = senderParty(accountId, '@pager');
    for (let n = 0; n < 5; n++) {
      harness.publish(
        n % 2 === 0 ? TransferInitiated : TransferConfirmed,
        transferPayload({ sender, transfer_id: `tr_pager${n}`, ...createdNow() }),
      );
    }
    harness.publish(
      AgentTransactionPendingApproval,
      approvalPayload({ agent: party('acct_bot_pager', '@pager/bot'), owner: party(accountId, '@pager') }),
    );
    await eventually(async () =>
      expect((await list({ account_id: accountId, environment: 'test' })).events).toHaveLength(6),
    );

    const all = await list({ account_id: accountId, environment: 'test' });
    const created = all.events.map((e) => Date.parse(e.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    // One topic is consumed in order; events of two topics may interleave.
    const transfers = all.events.filter((e) => e.event.startsWith('transfer.')).map((e) => e.transfer_id);
    expect(transfers).toEqual(['tr_pager4', 'tr_pager3', 'tr_pager2', 'tr_pager1', 'tr_pager0']);

    const first = await list({ account_id: accountId, environment: 'test', limit: 4 });
    const second = await list({
      account_id: accountId,
      environment: 'test',
      limit: 4,
      starting_after: ids(first).at(-1),
    });
    expect(first.has_more).toBe(true);
    expect(second.has_more).toBe(false);
    expect([...ids(first), ...ids(second)]).toEqual(ids(all));

    const initiated = await list({
      account_id: accountId,
      environment: 'test',
      types: ['transfer.initiated'],
    });
    expect(initiated.events.map((e) => e.transfer_id)).toEqual(['tr_pager4', 'tr_pager2', 'tr_pager0']);
    const two = await list({
      account_id: accountId,
      environment: 'test',
      types: ['transfer.initiated', 'agent.transaction.pending_approval'],
    });
    expect(two.events).toHaveLength(4);

    const middle = all.events[2]?.created_at ?? '';
    const before = await list({ account_id: accountId, environment: 'test', created_before: middle });
    const after = await list({ account_id: accountId, environment: 'test', created_after: middle });
    expect(before.events.every((e) => e.created_at < middle)).toBe(true);
    expect(after.events.every((e) => e.created_at > middle)).toBe(true);

    expect(
      await harness.commands.send(
        ListEvents,
        { account_id: accountId, environment: 'test', limit: 2, types: [], starting_after: 'evt_unknown' },
        testContext,
      ),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request', param: 'starting_after' } });
  });

  it('keeps events 30 days: older ones are neither listed nor found', async () => {
    const { accountId } = harness.unique('old');
    harness.publish(
      TransferConfirmed,
      transferPayload({ sender: senderParty(accountId, '@old'), ...createdNow() }),
    );
    await eventually(async () =>
      expect((await list({ account_id: accountId, environment: 'test' })).events).toHaveLength(1),
    );
    const [event] = (await list({ account_id: accountId, environment: 'test' })).events;
    await harness.dataSource.query(
      `UPDATE "webhooks"."events" SET created_at = now() - interval '30 days 1 minute' WHERE id = $1`,
      [event?.event_id],
    );

    expect(await list({ account_id: accountId, environment: 'test' })).toEqual({
      events: [],
      has_more: false,
    });
    expect(
      await harness.commands.send(
        GetEvent,
        { account_id: accountId, environment: 'test', event_id: event?.event_id ?? '' },
        testContext,
      ),
    ).toMatchObject({ ok: false, error: { code: 'event_not_found' } });
  });
});
