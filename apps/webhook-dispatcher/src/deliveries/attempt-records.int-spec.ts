import { TransferConfirmed } from '@cts/contracts';
import { generateTestCertificates } from '@cts/testing';
import { type AttemptOutcome } from '../attempts/attempt.domain';
import { DispatcherHarness } from '../testing/dispatcher-harness';
import { senderParty, transferPayload } from '../testing/event-factories';
import { DeliveryRepository } from './delivery.repository';

interface AttemptRow {
  attempt_number: number;
  status_code: number | null;
  response_body: string | null;
  error_code: string | null;
  error: string | null;
}

describe('recording attempts (real PostgreSQL)', () => {
  let harness: DispatcherHarness;
  const deliveries = new DeliveryRepository();

  beforeAll(async () => {
    // No lanes: the test claims and records the deliveries itself.
    harness = await DispatcherHarness.start(generateTestCertificates(), {}, { maxConcurrentAttempts: 0 });
  });

  afterAll(async () => {
    await harness.close();
  });

  /** Claims the one due delivery of a new subscription and records `outcome` for it. */
  async function recordOne(name: string, outcome: AttemptOutcome, status: 'succeeded' | 'pending') {
    const { accountId, path } = harness.unique(name);
    await harness.subscribe(accountId, path);
    harness.publish(TransferConfirmed, transferPayload({ sender: senderParty(accountId, `@${name}`) }));
    await harness.instance.bus.drain();
    const attemptedAt = new Date();
    return harness.dataSource.transaction(async (manager) => {
      const [delivery] = await deliveries.claimDue(
        new Date(Date.now() + 1000),
        { limit: 1, only: null },
        [],
        [],
        manager,
      );
      if (!delivery) throw new Error('nothing was due');
      await deliveries.recordAttempts(
        [
          {
            delivery,
            attemptedAt,
            outcome,
            result: {
              status,
              attemptCount: 1,
              firstAttemptAt: attemptedAt,
              nextAttemptAt: status === 'pending' ? new Date(attemptedAt.getTime() + 60_000) : null,
              failureReason: null,
            },
          },
        ],
        manager,
      );
      const attempts = await manager.query<AttemptRow[]>(
        `SELECT attempt_number, status_code, response_body, error_code, error
         FROM "webhooks"."delivery_attempts" WHERE delivery_id = $1`,
        [delivery.id],
      );
      const [state] = await manager.query<
        { status: string; attempt_count: number; next_attempt_at: Date | null }[]
      >(`SELECT status, attempt_count, next_attempt_at FROM "webhooks"."deliveries" WHERE id = $1`, [
        delivery.id,
      ]);
      return { attempts, state };
    });
  }

  it('stores the answer as it came, quotes, backslashes and characters beyond the BMP included', async () => {
    const responseBody = '{"ok":"yes \\"quoted\\" C:\\\\path","emoji":"😀","accents":"é"}';
    const { attempts, state } = await recordOne(
      'answer',
      { statusCode: 200, responseBody, retryAfter: null, errorCode: null, error: null, durationMs: 12 },
      'succeeded',
    );

    expect(attempts).toEqual([
      { attempt_number: 1, status_code: 200, response_body: responseBody, error_code: null, error: null },
    ]);
    expect(state).toEqual({ status: 'succeeded', attempt_count: 1, next_attempt_at: null });
  });

  it('stores an error text cut inside a surrogate pair, the half character replaced', async () => {
    const cut = 'ECONNRESET: socket hang up at 😀'.slice(0, -1);
    const { attempts, state } = await recordOne(
      'cut',
      {
        statusCode: null,
        responseBody: null,
        retryAfter: null,
        errorCode: 'connection_error',
        error: cut,
        durationMs: 3,
      },
      'pending',
    );

    expect(attempts).toEqual([
      {
        attempt_number: 1,
        status_code: null,
        response_body: null,
        error_code: 'connection_error',
        error: `${cut.slice(0, -1)}\uFFFD`,
      },
    ]);
    expect(state?.status).toBe('pending');
    expect(state?.next_attempt_at).toBeInstanceOf(Date);
  });
});
