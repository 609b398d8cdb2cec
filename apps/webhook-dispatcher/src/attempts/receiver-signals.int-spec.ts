import { TransferConfirmed } from '@cts/contracts';
import { eventually, generateTestCertificates } from '@cts/testing';
import { DispatcherHarness } from '../testing/dispatcher-harness';
import { senderParty, transferPayload } from '../testing/event-factories';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After on 429/503 and 410 Gone, against a real HTTPS receiver. */
describe('what a receiver asks for (schedule 1s,2s,4s)', () => {
  let harness: DispatcherHarness;

  beforeAll(async () => {
    harness = await DispatcherHarness.start(generateTestCertificates());
  });

  afterAll(async () => {
    await harness.close();
  });

  /** A subscription whose receiver answers `first` once, then 200; resolves with the two request times. */
  async function twoAttempts(
    name: string,
    first: (requestedAt: number) => { status: number; headers?: Record<string, string> },
  ) {
    const { accountId, path } = harness.unique(name);
    const webhook = await harness.subscribe(accountId, path);
    harness.receiver.on(path, (request, index) =>
      index === 0 ? first(request.receivedAt) : { status: 200 },
    );
    harness.publish(TransferConfirmed, transferPayload({ sender: senderParty(accountId, `@${name}`) }));
    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(2), 10_000);
    const [t0 = 0, t1 = 0] = harness.receiver.received(path).map((r) => r.receivedAt);
    await eventually(async () =>
      expect((await harness.deliveries(accountId, webhook.webhook_id))[0]?.status).toBe('succeeded'),
    );
    return { gap: t1 - t0, t1, delivery: (await harness.deliveries(accountId, webhook.webhook_id))[0] };
  }

  it('waits as long as a 429 Retry-After in seconds asks, rather than the 1 s of the schedule', async () => {
    const { gap, delivery } = await twoAttempts('throttled', () => ({
      status: 429,
      headers: { 'retry-after': '3' },
    }));

    expect(gap).toBeGreaterThanOrEqual(2950);
    expect(gap).toBeLessThan(4000);
    expect(delivery?.attempts.map((a) => a.response_status_code)).toEqual([429, 200]);
  }, 15_000);

  it('waits until the HTTP date of a 503 Retry-After', async () => {
    let until = 0;
    const { gap, t1 } = await twoAttempts('overloaded', (requestedAt) => {
      until = Math.ceil((requestedAt + 2500) / 1000) * 1000;
      return { status: 503, headers: { 'retry-after': new Date(until).toUTCString() } };
    });

    expect(t1).toBeGreaterThanOrEqual(until - 20);
    expect(gap).toBeGreaterThan(2400);
    expect(gap).toBeLessThan(4500);
  }, 15_000);

  it('never comes back sooner than the schedule, whatever Retry-After says', async () => {
    const { gap } = await twoAttempts('impatient', () => ({ status: 429, headers: { 'retry-after': '0' } }));

    expect(gap).toBeGreaterThanOrEqual(900);
    expect(gap).toBeLessThan(1700);
  }, 15_000);

  it('stops at once on 410 Gone: the delivery fails with that reason and is not retried', async () => {
    const { accountId, path } = harness.unique('gone');
    const webhook = await harness.subscribe(accountId, path);
    harness.receiver.on(path, () => ({ status: 410, body: 'unsubscribed' }));

    harness.publish(TransferConfirmed, transferPayload({ sender: senderParty(accountId, '@gone') }));

    await eventually(async () =>
      expect((await harness.deliveries(accountId, webhook.webhook_id))[0]?.status).toBe('failed'),
    );
    await sleep(1500);
    expect(harness.receiver.received(path)).toHaveLength(1);
    expect((await harness.deliveries(accountId, webhook.webhook_id))[0]).toMatchObject({
      status: 'failed',
      failure_reason: 'endpoint_gone',
      attempt_count: 1,
      retry_count: 0,
      response_status_code: 410,
      next_attempt_at: null,
      attempts: [{ attempt_number: 1, response_status_code: 410, error: null }],
    });
  }, 15_000);
});

describe('Retry-After against the end of the window (schedule 200ms,200ms, window 1 s)', () => {
  let harness: DispatcherHarness;

  beforeAll(async () => {
    harness = await DispatcherHarness.start(
      generateTestCertificates(),
      { WEBHOOK_RETRY_SCHEDULE: '200ms,200ms' },
      { retryWindowMs: 1000 },
    );
  });

  afterAll(async () => {
    await harness.close();
  });

  it('clamps a Retry-After beyond the window to a final attempt at its end, then fails', async () => {
    const { accountId, path } = harness.unique('later');
    const webhook = await harness.subscribe(accountId, path);
    harness.receiver.on(path, () => ({ status: 503, headers: { 'retry-after': '3600' } }));

    harness.publish(TransferConfirmed, transferPayload({ sender: senderParty(accountId, '@later') }));

    await eventually(
      async () => expect((await harness.deliveries(accountId, webhook.webhook_id))[0]?.status).toBe('failed'),
      8000,
    );
    const [t0 = 0, t1 = 0] = harness.receiver.received(path).map((r) => r.receivedAt);
    expect(harness.receiver.received(path)).toHaveLength(2);
    expect(t1 - t0).toBeGreaterThanOrEqual(950);
    expect(t1 - t0).toBeLessThan(1600);
    expect((await harness.deliveries(accountId, webhook.webhook_id))[0]).toMatchObject({
      attempt_count: 2,
      failure_reason: 'retries_exhausted',
      next_attempt_at: null,
    });
  }, 15_000);
});
