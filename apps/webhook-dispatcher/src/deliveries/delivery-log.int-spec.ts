import { TransferConfirmed, type WebhookDelivery } from '@cts/contracts';
import { eventually, findFreePort, generateTestCertificates } from '@cts/testing';
import { DispatcherHarness } from '../testing/dispatcher-harness';
import { senderParty, transferPayload } from '../testing/event-factories';

describe('the delivery log (timeout 2 s)', () => {
  let harness: DispatcherHarness;

  beforeAll(async () => {
    harness = await DispatcherHarness.start(generateTestCertificates());
  });

  afterAll(async () => {
    await harness.close();
  });

  const send = (accountId: string, transferId = 'tr_log') =>
    harness.publish(
      TransferConfirmed,
      transferPayload({ transfer_id: transferId, sender: senderParty(accountId, '@log') }),
    );

  it('pages newest first with limit, offset and has_more', async () => {
    const { accountId, path } = harness.unique('paged');
    const webhook = await harness.subscribe(accountId, path);
    for (let i = 0; i < 5; i++) {
      send(accountId, `tr_page_${i}`);
      await harness.instance.bus.drain();
    }
    await eventually(async () =>
      expect((await harness.deliveries(accountId, webhook.webhook_id)).map((d) => d.status)).toEqual(
        Array(5).fill('succeeded'),
      ),
    );

    const all = await harness.deliveryPage(accountId, webhook.webhook_id, { limit: 100 });
    const pages = [];
    for (const offset of [0, 2, 4, 5]) {
      pages.push(await harness.deliveryPage(accountId, webhook.webhook_id, { limit: 2, offset }));
    }

    expect(all.has_more).toBe(false);
    expect(all.deliveries).toHaveLength(5);
    expect(pages.map((p) => [p.deliveries.length, p.has_more])).toEqual([
      [2, true],
      [2, true],
      [1, false],
      [0, false],
    ]);
    expect(pages.flatMap((p) => p.deliveries.map((d) => d.delivery_id))).toEqual(
      all.deliveries.map((d) => d.delivery_id),
    );
    expect((await harness.deliveryPage(accountId, webhook.webhook_id)).deliveries).toHaveLength(5);
  });

  it('shows every attempt with its status code, duration and time, keeping response bodies out', async () => {
    const { accountId, path } = harness.unique('bodies');
    const webhook = await harness.subscribe(accountId, path);
    harness.receiver.on(path, (_request, index) =>
      index === 0
        ? { status: 500, body: `api_key=sk_live_leak ${'x'.repeat(3000)}` }
        : { status: 200, body: 'ok' },
    );
    const startedAt = Date.now();

    send(accountId);

    await eventually(async () =>
      expect((await harness.deliveries(accountId, webhook.webhook_id))[0]?.status).toBe('succeeded'),
    );
    const page = await harness.deliveryPage(accountId, webhook.webhook_id);
    const [delivery] = page.deliveries;
    expect(delivery).toMatchObject({
      attempt_count: 2,
      retry_count: 1,
      next_attempt_at: null,
      failure_reason: null,
    });
    expect(delivery?.attempts).toEqual([
      {
        attempt_number: 1,
        attempted_at: expect.any(String),
        duration_ms: expect.any(Number),
        response_status_code: 500,
        error: null,
      },
      {
        attempt_number: 2,
        attempted_at: expect.any(String),
        duration_ms: expect.any(Number),
        response_status_code: 200,
        error: null,
      },
    ]);
    const [first, second] = (delivery?.attempts ?? []).map((a) => Date.parse(a.attempted_at));
    expect(first).toBeGreaterThanOrEqual(startedAt - 1000);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(900);
    expect(JSON.stringify(page)).not.toContain('sk_live_leak');
    const stored = await harness.dataSource.query<{ response_body: string }[]>(
      `SELECT a.response_body FROM "webhooks"."delivery_attempts" a
       JOIN "webhooks"."deliveries" d ON d.id = a.delivery_id WHERE d.subscription_id = $1 ORDER BY a.attempt_number`,
      [webhook.webhook_id],
    );
    expect(stored[0]?.response_body).toMatch(/^api_key=sk_live_leak x+$/);
    expect(Buffer.byteLength(stored[0]?.response_body ?? '')).toBeLessThanOrEqual(2048);
  }, 15_000);

  it('names the network error of an attempt that got no answer', async () => {
    const closedPort = await findFreePort();
    harness.dns.set('wrong-name.test', '127.0.0.1');
    harness.dns.set('vanishing.test', '127.0.0.1');
    harness.dns.set('rebinding.test', '127.0.0.1');
    const cases = {
      timeout: { host: '127.0.0.1', url: (path: string) => harness.receiver.url(path) },
      connection_refused: {
        host: '127.0.0.1',
        url: (path: string) => `https://127.0.0.1:${closedPort}${path}`,
      },
      tls_error: {
        host: 'wrong-name.test',
        url: (path: string) => harness.receiver.url(path, 'wrong-name.test'),
      },
      dns_error: {
        host: 'vanishing.test',
        url: (path: string) => harness.receiver.url(path, 'vanishing.test'),
      },
      destination_refused: {
        host: 'rebinding.test',
        url: (path: string) => harness.receiver.url(path, 'rebinding.test'),
      },
    };
    const hooks = await Promise.all(
      Object.entries(cases).map(async ([expected, { url }]) => {
        const { accountId, path } = harness.unique(expected.replace('_', '-'));
        harness.receiver.on(path, () => ({ status: 200, delayMs: expected === 'timeout' ? 2600 : 0 }));
        const created = await harness.subscribeUrl(accountId, url(path));
        return { expected, accountId, webhookId: created.webhook_id };
      }),
    );
    harness.dns.delete('vanishing.test');
    harness.dns.set('rebinding.test', '169.254.169.254');

    for (const hook of hooks) {
      send(hook.accountId);
    }

    const firstAttempt = async (hook: (typeof hooks)[number]) =>
      (await harness.deliveries(hook.accountId, hook.webhookId))[0]?.attempts[0];
    await eventually(async () => {
      for (const hook of hooks) {
        expect(await firstAttempt(hook)).toBeDefined();
      }
    }, 8000);
    const seen: Record<string, WebhookDelivery['attempts'][number] | undefined> = {};
    for (const hook of hooks) {
      seen[hook.expected] = await firstAttempt(hook);
    }
    for (const [expected, attempt] of Object.entries(seen)) {
      expect({ expected, attempt }).toEqual({
        expected,
        attempt: expect.objectContaining({ response_status_code: null, error: expected }),
      });
    }
    expect(seen.timeout?.duration_ms).toBeGreaterThanOrEqual(1900);
  }, 15_000);
});
