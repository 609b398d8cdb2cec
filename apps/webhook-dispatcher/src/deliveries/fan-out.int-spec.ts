import {
  AgentPolicyUpdated,
  createEnvelope,
  AgentTransactionPendingApproval,
  ReplayWebhookEvent,
  TransferConfirmed,
  TransferFailed,
} from '@cts/contracts';
import { eventually } from '@cts/testing';
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { EventRetention } from '../events/event-retention';
import { DispatcherHarness, testContext } from '../testing/dispatcher-harness';
import {
  approvalPayload,
  party,
  publishEvent,
  senderParty,
  TRANSFER_CONFIRMED_AT,
  TRANSFER_CREATED_AT,
  transferPayload,
} from '../testing/event-factories';
import { generateTestCertificates } from '@cts/testing';

type Payload = Record<string, unknown>;
const parse = (body: string | undefined): Payload => JSON.parse(body ?? '{}') as Payload;
const bodyOf = (harness: DispatcherHarness, path: string, index = 0) =>
  parse(harness.receiver.received(path)[index]?.body);

describe('webhook fan-out and delivery to a real HTTPS receiver', () => {
  let harness: DispatcherHarness;

  beforeAll(async () => {
    harness = await DispatcherHarness.start(generateTestCertificates(['receiver.test']));
  });

  afterAll(async () => {
    await harness.close();
  });

  it('delivers a transfer to the sender agent, its owner and the recipient, each from its own side', async () => {
    const owner = harness.unique('owner');
    const agent = harness.unique('agent');
    const recipient = harness.unique('recipient');
    const bystander = harness.unique('bystander');
    await harness.subscribe(owner.accountId, owner.path);
    await harness.subscribe(agent.accountId, agent.path);
    await harness.subscribe(recipient.accountId, recipient.path);
    await harness.subscribe(bystander.accountId, bystander.path);
    await harness.subscribe(owner.accountId, `${owner.path}-failed-only`, ['transfer.failed']);
    await harness.subscribe(recipient.accountId, `${recipient.path}-live`, ['transfer.confirmed'], 'live');

    harness.publish(
      TransferConfirmed,
      transferPayload({
        sender: senderParty(agent.accountId, '@owner/bot', party(owner.accountId, '@owner')),
        recipient: {
          account_id: recipient.accountId,
          handle: '@recipient',
          address: 'RecipientAddress',
          owner: null,
        },
        to: '@recipient',
        confidential: true,
      }),
    );

    await eventually(() => {
      for (const path of [owner.path, agent.path, recipient.path]) {
        expect(harness.receiver.received(path)).toHaveLength(1);
      }
    });
    const [toOwner, toAgent, toRecipient] = [owner.path, agent.path, recipient.path].map((path) =>
      bodyOf(harness, path),
    );
    const common = {
      event_id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
      event: 'transfer.confirmed',
      timestamp: expect.stringMatching(/Z$/),
      transfer_id: 'tr_0000000000000000000000test',
      status: 'confirmed',
      asset: 'USDC',
      confidential: true,
      chain_signature: '5sigsigsig',
      created_at: TRANSFER_CREATED_AT,
      confirmed_at: TRANSFER_CONFIRMED_AT,
    };
    expect(toAgent).toEqual({
      ...common,
      account: '@owner/bot',
      direction: 'sent',
      counterparty: '@recipient',
    });
    expect(toOwner).toEqual({
      ...common,
      account: '@owner',
      direction: 'sent',
      counterparty: '@recipient',
      agent: '@owner/bot',
    });
    expect(toRecipient).toEqual({
      ...common,
      account: '@recipient',
      direction: 'received',
      counterparty: '@owner/bot',
    });
    expect(new Set([toOwner.event_id, toAgent.event_id, toRecipient.event_id]).size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.receiver.received(bystander.path)).toHaveLength(0);
    expect(harness.receiver.received(`${owner.path}-failed-only`)).toHaveLength(0);
    expect(harness.receiver.received(`${recipient.path}-live`)).toHaveLength(0);
  });

  it('shows the amount of a non-confidential transfer only, and an outside recipient by its address', async () => {
    const sender = harness.unique('plain');
    await harness.subscribe(sender.accountId, sender.path, ['transfer.confirmed', 'transfer.failed']);

    harness.publish(
      TransferConfirmed,
      transferPayload({
        sender: senderParty(sender.accountId, '@plain'),
        recipient: { account_id: null, handle: null, address: 'OutsideAddress111', owner: null },
        to: 'OutsideAddress111',
        confidential: false,
        amount: '12.5',
      }),
    );
    harness.publish(
      TransferFailed,
      transferPayload({
        sender: senderParty(sender.accountId, '@plain'),
        status: 'failed',
        failure_reason: 'insufficient_balance',
      }),
    );

    await eventually(() => expect(harness.receiver.received(sender.path)).toHaveLength(2));
    const bodies = harness.receiver.received(sender.path).map((r) => parse(r.body));
    const confirmed = bodies.find((b) => b.event === 'transfer.confirmed');
    const failed = bodies.find((b) => b.event === 'transfer.failed');
    expect(confirmed).toMatchObject({
      direction: 'sent',
      counterparty: 'OutsideAddress111',
      confidential: false,
      amount: '12.5',
    });
    expect(failed).toMatchObject({
      status: 'failed',
      failure_reason: 'insufficient_balance',
      confidential: true,
    });
    expect(failed).not.toHaveProperty('amount');
  });

  it('signs every delivery so that both header schemes verify, independently of our code', async () => {
    const { accountId, path } = harness.unique('signed');
    const webhook = await harness.subscribe(accountId, path);

    harness.publish(TransferConfirmed, transferPayload({ sender: senderParty(accountId, '@signed') }));

    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(1));
    const [request] = harness.receiver.received(path);
    if (!request) throw new Error('no request');
    const header = (name: string) => String(request.headers[name]);
    expect(request.method).toBe('POST');
    expect(header('content-type')).toBe('application/json');
    expect(header('user-agent')).toMatch(/^cts-webhooks\//);
    expect(header('x-service-signature')).toBe(
      createHmac('sha256', webhook.secret).update(request.body).digest('hex'),
    );
    const id = header('webhook-id');
    const timestamp = header('webhook-timestamp');
    expect(id).toBe(JSON.parse(request.body).event_id);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(10);
    const key = Buffer.from(webhook.secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64');
    expect(header('webhook-signature')).toBe(`v1,${expected}`);
    expect(
      new Webhook(webhook.secret).verify(request.body, request.headers as Record<string, string>),
    ).toEqual(JSON.parse(request.body));
  });

  it('sends agent and approval events to the agent and its owner, never an amount', async () => {
    const owner = harness.unique('boss');
    const agent = harness.unique('worker');
    const events = ['agent.transaction.pending_approval', 'agent.policy.updated'];
    await harness.subscribe(owner.accountId, owner.path, events);
    await harness.subscribe(agent.accountId, agent.path, events);
    const parties = { agent: party(agent.accountId, '@boss/worker'), owner: party(owner.accountId, '@boss') };

    harness.publish(AgentTransactionPendingApproval, approvalPayload(parties));
    harness.publish(AgentPolicyUpdated, {
      ...parties,
      policy_id: 'pol_1',
      changed_fields: ['daily_limit_usdc'],
      updated_at: '2026-01-02T00:00:00.000Z',
    });

    await eventually(() => {
      expect(harness.receiver.received(owner.path)).toHaveLength(2);
      expect(harness.receiver.received(agent.path)).toHaveLength(2);
    });
    const toOwner = harness.receiver.received(owner.path).map((r) => parse(r.body));
    const toAgent = harness.receiver.received(agent.path).map((r) => parse(r.body));
    expect(toOwner.find((b) => b.event === 'agent.transaction.pending_approval')).toEqual({
      event_id: expect.stringMatching(/^evt_/),
      event: 'agent.transaction.pending_approval',
      account: '@boss',
      timestamp: expect.any(String),
      transaction_id: 'atx_0000000000000000000000test',
      status: 'pending_approval',
      agent: '@boss/worker',
      agent_account_id: agent.accountId,
      owner: '@boss',
      to: 'shop.example.com',
      asset: 'USDC',
      requested_at: '2026-01-02T03:04:05.000Z',
      expires_at: '2026-01-02T04:04:05.000Z',
      decided_at: null,
      transfer_id: null,
      x402: null,
    });
    expect(toAgent.find((b) => b.event === 'agent.policy.updated')).toMatchObject({
      account: '@boss/worker',
      agent: '@boss/worker',
      owner: '@boss',
      policy_id: 'pol_1',
      changed_fields: ['daily_limit_usdc'],
    });
    expect(JSON.stringify([...toOwner, ...toAgent])).not.toContain('amount');
  });

  it('handles a redelivered event (same envelope id) once', async () => {
    const { accountId, path } = harness.unique('dedup');
    const webhook = await harness.subscribe(accountId, path);
    const envelope = harness.publish(
      TransferConfirmed,
      transferPayload({ sender: senderParty(accountId, '@dedup') }),
    );

    publishEvent(harness.instance.bus, TransferConfirmed, envelope);
    publishEvent(harness.instance.bus, TransferConfirmed, envelope);
    await harness.instance.bus.drain();

    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.receiver.received(path)).toHaveLength(1);
    expect(await harness.deliveries(accountId, webhook.webhook_id)).toHaveLength(1);
    const [{ count }] = await harness.dataSource.query<[{ count: number }]>(
      `SELECT count(*)::int AS count FROM "webhooks"."events" WHERE message_id = $1`,
      [envelope.id],
    );
    expect(count).toBe(1);
  });

  it('gives each subscription of an account its own delivery, its id led by the event’s time', async () => {
    const { accountId, path } = harness.unique('twice');
    const first = await harness.subscribe(accountId, path);
    const second = await harness.subscribe(accountId, `${path}-second`);
    harness.publish(TransferConfirmed, transferPayload({ sender: senderParty(accountId, '@twice') }));

    await eventually(() => expect(harness.receiver.received(`${path}-second`)).toHaveLength(1));
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(1));
    const [one] = await harness.deliveries(accountId, first.webhook_id);
    const [other] = await harness.deliveries(accountId, second.webhook_id);
    expect([one?.delivery_id, other?.delivery_id]).toEqual([
      expect.stringMatching(/^dlv_[0-9a-hjkmnp-tv-z]{26}$/),
      expect.stringMatching(/^dlv_[0-9a-hjkmnp-tv-z]{26}$/),
    ]);
    expect(one?.delivery_id).not.toBe(other?.delivery_id);
    expect(one?.event_id).toBe(other?.event_id);
    // Sorting by id keeps the order of time, as for every other id.
    expect(one?.delivery_id.slice(4, 14)).toBe(one?.event_id.slice(4, 14));
  });

  it('lists a delivery log newest first, with status codes and retry counts, honouring limit', async () => {
    const { accountId, path } = harness.unique('log');
    const webhook = await harness.subscribe(accountId, path, ['transfer.confirmed']);
    for (const transferId of ['tr_a', 'tr_b', 'tr_c']) {
      harness.publish(
        TransferConfirmed,
        transferPayload({ transfer_id: transferId, sender: senderParty(accountId, '@log') }),
      );
      await harness.instance.bus.drain();
    }
    await eventually(async () =>
      expect(
        (await harness.deliveries(accountId, webhook.webhook_id)).every((d) => d.status === 'succeeded'),
      ).toBe(true),
    );

    const all = await harness.deliveries(accountId, webhook.webhook_id);
    const two = await harness.deliveries(accountId, webhook.webhook_id, 2);

    expect(all).toHaveLength(3);
    expect(two.map((d) => d.delivery_id)).toEqual(all.slice(0, 2).map((d) => d.delivery_id));
    expect(all.map((d) => d.created_at)).toEqual([...all.map((d) => d.created_at)].sort().reverse());
    // Attempts run in parallel, so arrival order says nothing: map each event to its transfer.
    const transferOf = new Map(
      harness.receiver.received(path).map((r) => [parse(r.body).event_id, parse(r.body).transfer_id]),
    );
    expect(all.map((d) => transferOf.get(d.event_id))).toEqual(['tr_c', 'tr_b', 'tr_a']);
    expect(all[0]).toEqual({
      delivery_id: expect.stringMatching(/^dlv_[0-9a-z]{26}$/),
      webhook_id: webhook.webhook_id,
      event_id: expect.stringMatching(/^evt_/),
      event: 'transfer.confirmed',
      status: 'succeeded',
      attempt_count: 1,
      retry_count: 0,
      response_status_code: 204,
      last_attempt_at: expect.any(String),
      next_attempt_at: null,
      created_at: expect.any(String),
      failure_reason: null,
      attempts: [
        {
          attempt_number: 1,
          attempted_at: all[0]?.last_attempt_at,
          duration_ms: expect.any(Number),
          response_status_code: 204,
          error: null,
        },
      ],
    });
  });

  describe('replay', () => {
    it('creates a new delivery of a stored event, with the same id and body', async () => {
      const { accountId, path } = harness.unique('replay');
      const webhook = await harness.subscribe(accountId, path);
      harness.publish(TransferConfirmed, transferPayload({ sender: senderParty(accountId, '@replay') }));
      await eventually(() => expect(harness.receiver.received(path)).toHaveLength(1));
      const [first] = harness.receiver.received(path);
      const eventId = JSON.parse(first?.body ?? '{}').event_id as string;

      const replayed = await harness.commands.send(
        ReplayWebhookEvent,
        { account_id: accountId, environment: 'test', webhook_id: webhook.webhook_id, event_id: eventId },
        testContext,
      );

      expect(replayed).toMatchObject({
        ok: true,
        value: { event_id: eventId, status: 'pending', attempt_count: 0, webhook_id: webhook.webhook_id },
      });
      await eventually(() => expect(harness.receiver.received(path)).toHaveLength(2));
      const second = harness.receiver.received(path)[1];
      expect(second?.body).toBe(first?.body);
      expect(second?.headers['webhook-id']).toBe(eventId);
      expect(await harness.deliveries(accountId, webhook.webhook_id)).toHaveLength(2);
    });

    it('makes one delivery of a redelivered replay command, answering it with the first reply', async () => {
      const { accountId, path } = harness.unique('rereplay');
      const webhook = await harness.subscribe(accountId, path);
      harness.publish(TransferConfirmed, transferPayload({ sender: senderParty(accountId, '@rereplay') }));
      await eventually(() => expect(harness.receiver.received(path)).toHaveLength(1));
      const eventId = bodyOf(harness, path).event_id as string;
      const envelope = createEnvelope(
        ReplayWebhookEvent.topic,
        ReplayWebhookEvent.version,
        ReplayWebhookEvent.request.parse({
          account_id: accountId,
          environment: 'test',
          webhook_id: webhook.webhook_id,
          event_id: eventId,
        }),
        testContext,
      );

      const first = (await harness.instance.bus.request(ReplayWebhookEvent.topic, envelope)) as {
        payload: unknown;
      };
      const second = (await harness.instance.bus.request(ReplayWebhookEvent.topic, envelope)) as {
        payload: unknown;
      };

      expect(first.payload).toMatchObject({ ok: true, value: { event_id: eventId, status: 'pending' } });
      expect(second.payload).toEqual(first.payload);
      await eventually(() => expect(harness.receiver.received(path)).toHaveLength(2));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(harness.receiver.received(path)).toHaveLength(2);
      expect(await harness.deliveries(accountId, webhook.webhook_id)).toHaveLength(2);
    });

    it('answers event_not_found for an unknown, foreign, other-environment or expired event, webhook_not_found for a foreign webhook', async () => {
      const mine = harness.unique('replayer');
      const other = harness.unique('stranger');
      const webhook = await harness.subscribe(mine.accountId, mine.path);
      const foreignWebhook = await harness.subscribe(other.accountId, other.path);
      harness.publish(
        TransferConfirmed,
        transferPayload({ sender: senderParty(other.accountId, '@stranger') }),
      );
      harness.publish(
        TransferConfirmed,
        transferPayload({ transfer_id: 'tr_old', sender: senderParty(mine.accountId, '@replayer') }),
      );
      harness.publish(
        TransferConfirmed,
        transferPayload({ transfer_id: 'tr_live', sender: senderParty(mine.accountId, '@replayer') }),
        'live',
      );
      await eventually(() => expect(harness.receiver.received(other.path)).toHaveLength(1));
      await eventually(() => expect(harness.receiver.received(mine.path)).toHaveLength(1));
      await harness.instance.bus.drain();
      const eventIdOf = async (transferId: string) =>
        (
          await harness.dataSource.query<{ id: string }[]>(
            `SELECT id FROM "webhooks"."events" WHERE data->>'transfer_id' = $1`,
            [transferId],
          )
        )[0]?.id ?? '';
      const foreignEvent = JSON.parse(harness.receiver.received(other.path)[0]?.body ?? '{}')
        .event_id as string;
      const oldEvent = await eventIdOf('tr_old');
      const liveEvent = await eventIdOf('tr_live');
      await harness.dataSource.query(
        `UPDATE "webhooks"."events" SET created_at = now() - interval '31 days' WHERE id = $1`,
        [oldEvent],
      );
      const replay = (webhookId: string, eventId: string) =>
        harness.commands.send(
          ReplayWebhookEvent,
          { account_id: mine.accountId, environment: 'test', webhook_id: webhookId, event_id: eventId },
          testContext,
        );

      for (const eventId of ['evt_unknown', foreignEvent, liveEvent, oldEvent]) {
        expect(await replay(webhook.webhook_id, eventId)).toMatchObject({
          ok: false,
          error: { code: 'event_not_found' },
        });
      }
      expect(await replay(foreignWebhook.webhook_id, foreignEvent)).toMatchObject({
        ok: false,
        error: { code: 'webhook_not_found' },
      });
      expect(liveEvent).toMatch(/^evt_/);
    });
  });
  it('drops events older than 30 days with their deliveries and attempts, keeping recent ones', async () => {
    const { accountId, path } = harness.unique('retention');
    const webhook = await harness.subscribe(accountId, path);
    for (const transferId of ['tr_aged', 'tr_fresh']) {
      harness.publish(
        TransferConfirmed,
        transferPayload({ transfer_id: transferId, sender: senderParty(accountId, '@retention') }),
      );
    }
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(2));
    await eventually(async () =>
      expect((await harness.deliveries(accountId, webhook.webhook_id)).map((d) => d.status)).toEqual([
        'succeeded',
        'succeeded',
      ]),
    );
    await harness.dataSource.query(
      `UPDATE "webhooks"."events" SET created_at = now() - interval '31 days' WHERE data->>'transfer_id' = 'tr_aged'`,
    );

    await harness.instance.service.app.get(EventRetention).purge();

    const left = await harness.dataSource.query<{ transfer_id: string }[]>(
      `SELECT e.data->>'transfer_id' AS transfer_id FROM "webhooks"."events" e
       JOIN "webhooks"."deliveries" d ON d.event_id = e.id
       JOIN "webhooks"."delivery_attempts" a ON a.delivery_id = d.id WHERE d.subscription_id = $1`,
      [webhook.webhook_id],
    );
    expect(left).toEqual([{ transfer_id: 'tr_fresh' }]);
    expect(await harness.deliveries(accountId, webhook.webhook_id)).toHaveLength(1);
  });
});
