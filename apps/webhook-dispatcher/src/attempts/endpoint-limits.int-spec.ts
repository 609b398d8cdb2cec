import { TransferConfirmed } from '@cts/contracts';
import { eventually, generateTestCertificates } from '@cts/testing';
import { DispatcherHarness } from '../testing/dispatcher-harness';
import { senderParty, transferPayload } from '../testing/event-factories';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('attempts in flight per endpoint (4 per replica, 2 per endpoint, timeout 2 s)', () => {
  let harness: DispatcherHarness;

  beforeAll(async () => {
    harness = await DispatcherHarness.start(
      generateTestCertificates(['receiver.test']),
      {},
      { maxConcurrentAttempts: 4, maxInFlightPerEndpoint: 2 },
    );
  });

  afterAll(async () => {
    await harness.close();
  });

  it('lets a hanging endpoint hold only 2 slots, so another endpoint is delivered at once', async () => {
    // Two endpoints (origins) on the one test receiver: https://receiver.test:<port> and https://127.0.0.1:<port>.
    const hanging = harness.unique('hanging');
    const prompt = harness.unique('prompt');
    const hangingHook = await harness.subscribe(
      hanging.accountId,
      hanging.path,
      undefined,
      'test',
      'receiver.test',
    );
    await harness.subscribe(prompt.accountId, prompt.path);
    let hangs = true;
    harness.receiver.on(hanging.path, () => (hangs ? { status: 200, delayMs: 3000 } : { status: 200 }));

    for (let i = 0; i < 6; i++) {
      harness.publish(
        TransferConfirmed,
        transferPayload({ transfer_id: `tr_hang_${i}`, sender: senderParty(hanging.accountId, '@hanging') }),
      );
    }
    await eventually(() => expect(harness.receiver.received(hanging.path)).toHaveLength(2));
    await sleep(300);
    expect(harness.receiver.received(hanging.path)).toHaveLength(2);
    // The other four are not even claimed: nothing holds their rows.
    const waiting = await harness.dataSource.query<{ attempt_count: number }[]>(
      `SELECT attempt_count FROM "webhooks"."deliveries" WHERE subscription_id = $1 FOR NO KEY UPDATE SKIP LOCKED`,
      [hangingHook.webhook_id],
    );
    expect(waiting).toEqual(Array(4).fill({ attempt_count: 0 }));

    const sentAt = Date.now();
    harness.publish(TransferConfirmed, transferPayload({ sender: senderParty(prompt.accountId, '@prompt') }));

    // Blocked behind the hanging attempts, it would wait for their 2 s timeout: 1.7 s or more.
    await eventually(() => expect(harness.receiver.received(prompt.path)).toHaveLength(1), 1400);
    expect((harness.receiver.received(prompt.path)[0]?.receivedAt ?? Infinity) - sentAt).toBeLessThan(1400);
    expect(harness.receiver.received(hanging.path)).toHaveLength(2);

    // The held-back deliveries stay due and go out as the hanging attempts time out and free their slots.
    hangs = false;
    await eventually(async () => {
      const log = await harness.deliveries(hanging.accountId, hangingHook.webhook_id);
      expect(log.map((d) => d.status)).toEqual(Array(6).fill('succeeded'));
    }, 15_000);
    const timedOut = (await harness.deliveries(hanging.accountId, hangingHook.webhook_id)).filter(
      (d) => d.attempts[0]?.error === 'timeout',
    );
    expect(timedOut).toHaveLength(2);
  }, 25_000);
});
