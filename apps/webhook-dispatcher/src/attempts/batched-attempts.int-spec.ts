import { TransferConfirmed } from '@cts/contracts';
import { eventually, generateTestCertificates } from '@cts/testing';
import { DispatcherHarness } from '../testing/dispatcher-harness';
import { senderParty, transferPayload } from '../testing/event-factories';

const EVENTS = 30;

describe('attempts made in batches (2 in flight per endpoint)', () => {
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

  it('records several attempts per transaction, each delivery sent and recorded exactly once', async () => {
    const { accountId, path } = harness.unique('batched');
    const webhook = await harness.subscribe(accountId, path, undefined, 'test', 'receiver.test');

    for (let i = 0; i < EVENTS; i++) {
      harness.publish(
        TransferConfirmed,
        transferPayload({ transfer_id: `tr_batch_${i}`, sender: senderParty(accountId, '@batched') }),
      );
    }

    await eventually(async () => {
      const log = await harness.deliveries(accountId, webhook.webhook_id, 100);
      expect(log.map((d) => d.status)).toEqual(Array(EVENTS).fill('succeeded'));
    }, 30_000);
    const received = harness.receiver.received(path);
    expect(received).toHaveLength(EVENTS);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(EVENTS);
    const [stats] = await harness.dataSource.query<
      { attempts: number; deliveries: number; transactions: number }[]
    >(
      `SELECT count(*)::int AS attempts, count(DISTINCT a.delivery_id)::int AS deliveries,
         count(DISTINCT a.xmin::text)::int AS transactions
       FROM "webhooks"."delivery_attempts" a JOIN "webhooks"."deliveries" d ON d.id = a.delivery_id
       WHERE d.subscription_id = $1`,
      [webhook.webhook_id],
    );
    expect(stats).toMatchObject({ attempts: EVENTS, deliveries: EVENTS });
    // Rows written by one transaction share its id (xmin): fewer transactions than attempts.
    expect(stats?.transactions).toBeLessThan(EVENTS);
  }, 40_000);

  it('never has more than the endpoint limit in flight while batches overlap', async () => {
    const { accountId, path } = harness.unique('overlap');
    await harness.subscribe(accountId, path, undefined, 'test', 'receiver.test');
    let inFlight = 0;
    let most = 0;
    harness.receiver.on(path, () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => (inFlight -= 1), 30);
      return { status: 204, delayMs: 30 };
    });

    for (let i = 0; i < 12; i++) {
      harness.publish(
        TransferConfirmed,
        transferPayload({ transfer_id: `tr_overlap_${i}`, sender: senderParty(accountId, '@overlap') }),
      );
    }

    await eventually(() => expect(harness.receiver.received(path)).toHaveLength(12), 30_000);
    expect(most).toBe(2);
  }, 40_000);
});
