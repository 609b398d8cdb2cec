import { MessagePublisher, type OutgoingMessage } from '@cts/messaging';
import { createTestDatabase, eventually, type TestDatabase } from '@cts/testing';
import { type DataSource } from 'typeorm';
import { UnitOfWork } from '../unit-of-work';
import { OutboxRelay } from './outbox-relay';
import { emitAccountCreated, openOutboxSchema } from './testing/outbox-schema';

const SCHEMA = 'relay_timing_test';

/** Records what the relay hands the transport; fails while `down` (a broker outage). */
class RecordingPublisher extends MessagePublisher {
  readonly keys: string[] = [];
  down = false;
  failures = 0;

  publish(messages: OutgoingMessage[]): Promise<void> {
    if (this.down) {
      this.failures += 1;
      return Promise.reject(new Error('broker unreachable'));
    }
    this.keys.push(...messages.map((message) => message.key));
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

describe('outbox relay timing: kicked at once, a slow backstop poll, quick retries (real PostgreSQL)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let publisher: RecordingPublisher;
  let relay: OutboxRelay | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await openOutboxSchema(db.url, SCHEMA);
  }, 60_000);

  beforeEach(() => {
    publisher = new RecordingPublisher();
  });

  afterEach(async () => {
    await relay?.stop();
    await dataSource.query(`DELETE FROM ${SCHEMA}.outbox`);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  /** A relay on the schema, started and kicked by commits of the returned unit of work. */
  function startRelay(options: { pollIntervalMs: number; retryIntervalMs?: number }): UnitOfWork {
    relay = new OutboxRelay(dataSource, publisher, { schema: SCHEMA, ...options });
    const unitOfWork = new UnitOfWork(dataSource, SCHEMA);
    const started = relay;
    unitOfWork.onEventsCommitted(() => started.kick());
    relay.start();
    return unitOfWork;
  }

  it('publishes a committed event at once, without waiting for the poll', async () => {
    const unitOfWork = startRelay({ pollIntervalMs: 3_600_000 });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the start-up look found nothing
    const committedAt = Date.now();
    await unitOfWork.run((tx) => emitAccountCreated(tx, 'acct_kicked', '@kicked'));
    await eventually(() => expect(publisher.keys).toEqual(['acct_kicked']), 5_000);
    expect(Date.now() - committedAt).toBeLessThan(2_000);
  });

  it('still publishes an event whose kick never came (its writer died), at the backstop poll', async () => {
    startRelay({ pollIntervalMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Another replica's commit: this relay was not kicked for it.
    await new UnitOfWork(dataSource, SCHEMA).run((tx) => emitAccountCreated(tx, 'acct_orphan', '@orphan'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(publisher.keys).toEqual([]);
    await eventually(() => expect(publisher.keys).toEqual(['acct_orphan']), 5_000);
  });

  it('retries a failed publish at the retry interval, not the slow poll, and publishes it once', async () => {
    const unitOfWork = startRelay({ pollIntervalMs: 3_600_000, retryIntervalMs: 200 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    publisher.down = true;
    await unitOfWork.run((tx) => emitAccountCreated(tx, 'acct_retried', '@retried'));
    await eventually(() => expect(publisher.failures).toBeGreaterThanOrEqual(2), 5_000);
    publisher.down = false;
    await eventually(() => expect(publisher.keys).toEqual(['acct_retried']), 5_000);
    const [row] = (await dataSource.query(`SELECT sent_at FROM ${SCHEMA}.outbox`)) as {
      sent_at: Date | null;
    }[];
    expect(row?.sent_at).not.toBeNull();
  });
});
