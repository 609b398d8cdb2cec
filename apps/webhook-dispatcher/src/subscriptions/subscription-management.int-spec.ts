import {
  createEnvelope,
  DeleteWebhook,
  GetEvent,
  GetWebhook,
  ListEvents,
  ReplayWebhookEvent,
  RotateWebhookSecret,
  SendTestWebhook,
  TransferConfirmed,
  UpdateWebhook,
  type WebhookSubscription,
} from '@cts/contracts';
import { decryptMemo, deriveElGamalPubkey, encodeBase64, generateElGamalSecret } from '@cts/crypto';
import { eventually, generateTestCertificates } from '@cts/testing';
import { Webhook } from 'standardwebhooks';
import { serviceSignature } from '../signing/webhook-signature.domain';
import { DispatcherHarness, testContext } from '../testing/dispatcher-harness';
import { senderParty, transferPayload } from '../testing/event-factories';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('managing a webhook subscription: read, update, disable, rotate, test, automatic disable, cap', () => {
  let harness: DispatcherHarness;

  beforeAll(async () => {
    harness = await DispatcherHarness.start(
      generateTestCertificates(['receiver.test']),
      { WEBHOOK_MAX_SUBSCRIPTIONS_PER_ACCOUNT: '3' },
      { disableAfterMs: 2500 },
    );
  });

  afterAll(async () => {
    await harness.close();
  });

  const scope = (accountId: string, webhookId: string) => ({
    account_id: accountId,
    environment: 'test' as const,
    webhook_id: webhookId,
  });
  const get = async (accountId: string, webhookId: string): Promise<WebhookSubscription> => {
    const got = await harness.commands.send(GetWebhook, scope(accountId, webhookId), testContext);
    if (!got.ok) throw new Error(got.error.message);
    return got.value;
  };
  const send = (accountId: string, handle: string) =>
    harness.publish(TransferConfirmed, transferPayload({ sender: senderParty(accountId, handle) }));

  it('reads a subscription of its account and environment only', async () => {
    const { accountId, path } = harness.unique('reader');
    const hook = await harness.subscribe(accountId, path);

    expect(await get(accountId, hook.webhook_id)).toMatchObject({
      webhook_id: hook.webhook_id,
      url: hook.url,
      disabled: false,
    });
    for (const foreign of [
      scope('acct_someone_else', hook.webhook_id),
      { ...scope(accountId, hook.webhook_id), environment: 'live' as const },
    ]) {
      expect(await harness.commands.send(GetWebhook, foreign, testContext)).toMatchObject({
        ok: false,
        error: { code: 'webhook_not_found' },
      });
    }
  });

  it('updates url and events, checking the url as on create', async () => {
    const { accountId, path } = harness.unique('updater');
    const hook = await harness.subscribe(accountId, path);

    const updated = await harness.commands.send(
      UpdateWebhook,
      {
        ...scope(accountId, hook.webhook_id),
        url: harness.receiver.url(`${path}-new`),
        events: ['transfer.failed'],
      },
      testContext,
    );
    expect(updated).toMatchObject({
      ok: true,
      value: { url: harness.receiver.url(`${path}-new`), events: ['transfer.failed'] },
    });
    for (const [url, message] of [
      ['https://169.254.169.254/latest', /metadata/],
      ['http://receiver.test/x', /https/],
    ] as const) {
      expect(
        await harness.commands.send(
          UpdateWebhook,
          { ...scope(accountId, hook.webhook_id), url },
          testContext,
        ),
      ).toMatchObject({
        ok: false,
        error: { code: 'invalid_request', param: 'url', message: expect.stringMatching(message) },
      });
    }
    expect(
      await harness.commands.send(
        UpdateWebhook,
        { ...scope(accountId, hook.webhook_id), events: ['nope'] },
        testContext,
      ),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request', param: 'events.0' } });
    expect((await get(accountId, hook.webhook_id)).url).toBe(harness.receiver.url(`${path}-new`));
  });

  it('restarts the failure clock when the URL changes: the old endpoint’s failures do not disable the new one', async () => {
    const { accountId, path } = harness.unique('moved');
    const hook = await harness.subscribe(accountId, path);
    const failingSince = async () => {
      const [row] = await harness.dataSource.query<{ failing_since: Date | null }[]>(
        `SELECT failing_since FROM "webhooks"."subscriptions" WHERE id = $1`,
        [hook.webhook_id],
      );
      return row?.failing_since ?? null;
    };
    const since = new Date(Date.now() - 60_000);
    await harness.dataSource.query(`UPDATE "webhooks"."subscriptions" SET failing_since = $2 WHERE id = $1`, [
      hook.webhook_id,
      since,
    ]);

    await harness.commands.send(
      UpdateWebhook,
      { ...scope(accountId, hook.webhook_id), events: ['transfer.failed'] },
      testContext,
    );
    expect(await failingSince()).toEqual(since);
    await harness.commands.send(
      UpdateWebhook,
      { ...scope(accountId, hook.webhook_id), url: harness.receiver.url(path) },
      testContext,
    );
    expect(await failingSince()).toEqual(since);
    await harness.commands.send(
      UpdateWebhook,
      { ...scope(accountId, hook.webhook_id), url: harness.receiver.url(`${path}-moved`) },
      testContext,
    );
    expect(await failingSince()).toBeNull();
  });

  it('sends nothing to a disabled endpoint; its deliveries wait and go out once it is enabled', async () => {
    const { accountId, path } = harness.unique('paused');
    const hook = await harness.subscribe(accountId, path);
    const disabled = await harness.commands.send(
      UpdateWebhook,
      { ...scope(accountId, hook.webhook_id), disabled: true },
      testContext,
    );
    expect(disabled).toMatchObject({ ok: true, value: { disabled: true, disabled_reason: 'manual' } });

    send(accountId, '@paused');
    await eventually(async () =>
      expect(await harness.deliveries(accountId, hook.webhook_id)).toMatchObject([
        { status: 'pending', next_attempt_at: null, attempt_count: 0 },
      ]),
    );
    await sleep(1500);
    expect(harness.receiver.received(path)).toHaveLength(0);

    const enabled = await harness.commands.send(
      UpdateWebhook,
      { ...scope(accountId, hook.webhook_id), disabled: false },
      testContext,
    );
    expect(enabled).toMatchObject({
      ok: true,
      value: { disabled: false, disabled_reason: null, disabled_at: null },
    });
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(1), 10_000);
  }, 30_000);

  it('keeps a replay to a disabled endpoint waiting like its other deliveries, sent once enabled', async () => {
    const { accountId, path } = harness.unique('replay-paused');
    const hook = await harness.subscribe(accountId, path);
    await harness.commands.send(
      UpdateWebhook,
      { ...scope(accountId, hook.webhook_id), disabled: true },
      testContext,
    );
    send(accountId, '@replay-paused');
    await eventually(async () =>
      expect(await harness.deliveries(accountId, hook.webhook_id)).toHaveLength(1),
    );
    const [original] = await harness.deliveries(accountId, hook.webhook_id);

    const replayed = await harness.commands.send(
      ReplayWebhookEvent,
      { ...scope(accountId, hook.webhook_id), event_id: original?.event_id ?? '' },
      testContext,
    );

    expect(replayed).toMatchObject({ ok: true, value: { status: 'pending', next_attempt_at: null } });
    expect(await harness.deliveries(accountId, hook.webhook_id)).toMatchObject([
      { next_attempt_at: null },
      { next_attempt_at: null },
    ]);
    await sleep(1000);
    expect(harness.receiver.received(path)).toHaveLength(0);
    await harness.commands.send(
      UpdateWebhook,
      { ...scope(accountId, hook.webhook_id), disabled: false },
      testContext,
    );
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(2), 10_000);
  }, 30_000);

  it('signs with the new and the previous secret for 24 hours after a rotation; X-Service-Signature with the new', async () => {
    const { accountId, path } = harness.unique('rotator');
    const hook = await harness.subscribe(accountId, path);
    const oneTime = generateElGamalSecret();
    const rotated = await harness.commands.send(
      RotateWebhookSecret,
      { ...scope(accountId, hook.webhook_id), recipient_key: encodeBase64(deriveElGamalPubkey(oneTime)) },
      testContext,
    );
    if (!rotated.ok) throw new Error(rotated.error.message);
    const secret = decryptMemo(oneTime, rotated.value.encrypted_secret);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(hook.secret);
    expect(Date.parse(rotated.value.previous_secret_expires_at ?? '') - Date.now()).toBeGreaterThan(
      23.9 * 3_600_000,
    );

    send(accountId, '@rotator');
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(1), 10_000);
    const [delivery] = harness.receiver.received(path);
    const headers = delivery?.headers as Record<string, string>;
    const body = delivery?.body ?? '';
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ account: '@rotator' });
    expect(new Webhook(hook.secret).verify(body, headers)).toMatchObject({ account: '@rotator' });
    expect(headers['x-service-signature']).toBe(serviceSignature(secret, body));

    // Once the overlap is over, only the new secret signs.
    await harness.dataSource.query(
      `UPDATE "webhooks"."subscriptions" SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
      [hook.webhook_id],
    );
    send(accountId, '@rotator');
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(2), 10_000);
    const later = harness.receiver.received(path)[1];
    expect(later?.headers['webhook-signature']?.toString().split(' ')).toHaveLength(1);
    expect(() =>
      new Webhook(hook.secret).verify(later?.body ?? '', later?.headers as Record<string, string>),
    ).toThrow();
    expect(
      new Webhook(secret).verify(later?.body ?? '', later?.headers as Record<string, string>),
    ).toBeTruthy();
  }, 30_000);

  it('delivers a webhook.test event to that endpoint now, even disabled, and lists it as an event', async () => {
    const { accountId, path } = harness.unique('tester');
    const hook = await harness.subscribe(accountId, path, ['transfer.failed']);
    await harness.commands.send(
      UpdateWebhook,
      { ...scope(accountId, hook.webhook_id), disabled: true },
      testContext,
    );

    const sent = await harness.commands.send(
      SendTestWebhook,
      { ...scope(accountId, hook.webhook_id), account_handle: '@tester' },
      testContext,
    );
    expect(sent).toMatchObject({ ok: true, value: { webhook_id: hook.webhook_id, event: 'webhook.test' } });
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(1), 10_000);
    const [received] = harness.receiver.received(path);
    const payload = new Webhook(hook.secret).verify(
      received?.body ?? '',
      received?.headers as Record<string, string>,
    );
    expect(payload).toEqual({
      event_id: sent.ok ? sent.value.event_id : '',
      event: 'webhook.test',
      account: '@tester',
      timestamp: expect.any(String),
      webhook_id: hook.webhook_id,
    });
    const event = await harness.commands.send(
      GetEvent,
      { account_id: accountId, environment: 'test', event_id: sent.ok ? sent.value.event_id : '' },
      testContext,
    );
    expect(event).toEqual({ ok: true, value: { ...(payload as object), created_at: expect.any(String) } });
    expect(
      await harness.commands.send(
        SendTestWebhook,
        { ...scope('acct_other', hook.webhook_id), account_handle: '@x' },
        testContext,
      ),
    ).toMatchObject({ ok: false, error: { code: 'webhook_not_found' } });
  });

  it('gives a redelivered test command its first reply and sends one test event, not two', async () => {
    const { accountId, path } = harness.unique('retest');
    const hook = await harness.subscribe(accountId, path, ['transfer.failed']);
    const envelope = createEnvelope(
      SendTestWebhook.topic,
      SendTestWebhook.version,
      SendTestWebhook.request.parse({ ...scope(accountId, hook.webhook_id), account_handle: '@retest' }),
      testContext,
    );
    const first = (await harness.instance.bus.request(SendTestWebhook.topic, envelope)) as {
      payload: unknown;
    };
    const second = (await harness.instance.bus.request(SendTestWebhook.topic, envelope)) as {
      payload: unknown;
    };

    expect(first.payload).toMatchObject({ ok: true, value: { event: 'webhook.test' } });
    expect(second.payload).toEqual(first.payload);
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(1), 10_000);
    await sleep(500);
    expect(harness.receiver.received(path)).toHaveLength(1);
    expect(await harness.deliveries(accountId, hook.webhook_id)).toHaveLength(1);
  });

  it('tries a test to a disabled endpoint once: a failure is not retried (an enabled one retries as usual)', async () => {
    const { accountId, path } = harness.unique('test-once');
    const hook = await harness.subscribe(accountId, path);
    harness.receiver.on(path, () => ({ status: 500 }));
    await harness.commands.send(
      UpdateWebhook,
      { ...scope(accountId, hook.webhook_id), disabled: true },
      testContext,
    );

    await harness.commands.send(
      SendTestWebhook,
      { ...scope(accountId, hook.webhook_id), account_handle: '@test-once' },
      testContext,
    );

    await eventually(async () =>
      expect(await harness.deliveries(accountId, hook.webhook_id)).toMatchObject([
        { status: 'failed', failure_reason: 'retries_exhausted', attempt_count: 1, next_attempt_at: null },
      ]),
    );
    await sleep(2_500);
    expect(harness.receiver.received(path)).toHaveLength(1);
  }, 30_000);

  it('disables an endpoint whose every attempt failed for WEBHOOK_DISABLE_AFTER and tells the account', async () => {
    const { accountId, path } = harness.unique('failing');
    const failing = await harness.subscribe(accountId, path);
    const watcherPath = `${path}-watcher`;
    const watcher = await harness.subscribe(accountId, watcherPath, ['webhook.endpoint.disabled']);
    harness.receiver.on(path, () => ({ status: 500 }));

    send(accountId, '@failing');
    // Attempts at 0 s, 1 s, 3 s (schedule 1s,2s,4s): the third is past the 2.5 s of failures.
    await eventually(() => expect(harness.receiver.received(watcherPath)).toHaveLength(1), 20_000);
    const attemptsWhenDisabled = harness.receiver.received(path).length;
    const notice = JSON.parse(harness.receiver.received(watcherPath)[0]?.body ?? '{}') as Record<
      string,
      unknown
    >;
    expect(notice).toEqual({
      event_id: expect.stringMatching(/^evt_/),
      event: 'webhook.endpoint.disabled',
      account: '@failing',
      timestamp: expect.any(String),
      webhook_id: failing.webhook_id,
      url: failing.url,
      reason: 'endpoint_failing',
      failing_since: expect.any(String),
      disabled_at: expect.any(String),
    });
    expect(await get(accountId, failing.webhook_id)).toMatchObject({
      disabled: true,
      disabled_reason: 'endpoint_failing',
      disabled_at: notice.disabled_at,
      failing_since: notice.failing_since,
    });
    const listed = await harness.commands.send(
      ListEvents,
      { account_id: accountId, environment: 'test', limit: 10, types: ['webhook.endpoint.disabled'] },
      testContext,
    );
    expect(listed).toEqual({
      ok: true,
      value: { events: [{ ...notice, created_at: expect.any(String) }], has_more: false },
    });
    await sleep(2500);
    expect(harness.receiver.received(path)).toHaveLength(attemptsWhenDisabled);
    expect(harness.receiver.received(watcherPath)).toHaveLength(1);
    await harness.commands.send(DeleteWebhook, scope(accountId, watcher.webhook_id), testContext);
  }, 30_000);

  it('clears the failure clock on a success, so intermittent failures never disable', async () => {
    const { accountId, path } = harness.unique('flaky');
    const hook = await harness.subscribe(accountId, path);
    harness.receiver.on(path, (_request, index) => ({ status: index % 2 === 0 ? 500 : 200 }));

    send(accountId, '@flaky');
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(2), 10_000);
    await eventually(async () => expect((await get(accountId, hook.webhook_id)).failing_since).toBeNull());
    send(accountId, '@flaky');
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(4), 10_000);
    expect(await get(accountId, hook.webhook_id)).toMatchObject({ disabled: false });
  }, 30_000);

  it('caps live subscriptions per account and environment (WEBHOOK_MAX_SUBSCRIPTIONS_PER_ACCOUNT)', async () => {
    const { accountId, path } = harness.unique('capped');
    const made = await Promise.all(
      [1, 2, 3, 4].map((n) => harness.subscribe(accountId, `${path}-${n}`).catch((e: Error) => e)),
    );
    const refused = made.filter((m): m is Error => m instanceof Error);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.message).toMatch(/at most 3 webhook subscriptions/);
    expect(await harness.subscribe(accountId, `${path}-live`, ['transfer.confirmed'], 'live')).toMatchObject({
      webhook_id: expect.stringMatching(/^wh_/),
    });
    const first = made.find((m): m is Exclude<typeof m, Error> => !(m instanceof Error));
    await harness.commands.send(DeleteWebhook, scope(accountId, first?.webhook_id ?? ''), testContext);
    expect(await harness.subscribe(accountId, `${path}-5`)).toMatchObject({
      webhook_id: expect.stringMatching(/^wh_/),
    });
  });
});
