import { type Envelope } from '@cts/contracts';
import { createTestDatabase, type TestDatabase } from '@cts/testing';
import { type DataSource } from 'typeorm';
import { MessagePublisher, type OutgoingMessage } from '@cts/messaging';
import { UnitOfWork } from '../unit-of-work';
import { OutboxRelay } from './outbox-relay';
import { emitAccountCreated, openOutboxSchema } from './testing/outbox-schema';

const SCHEMA = 'order_test';

class RecordingPublisher extends MessagePublisher {
  readonly published: OutgoingMessage[] = [];
  publish(messages: OutgoingMessage[]): Promise<void> {
    this.published.push(...messages);
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

describe('outbox relay order (real PostgreSQL)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await openOutboxSchema(db.url, SCHEMA);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  it('publishes a batch in the order its events were written, not in the order the table returns them', async () => {
    const unitOfWork = new UnitOfWork(dataSource, SCHEMA);
    const written: Envelope[] = [];
    // Three transactions one after the other, then two events in one transaction.
    for (const handle of ['@first', '@second', '@third']) {
      written.push(await unitOfWork.run((tx) => emitAccountCreated(tx, 'acct_order', handle)));
    }
    written.push(
      ...(await unitOfWork.run(async (tx) => [
        await emitAccountCreated(tx, 'acct_order', '@fourth'),
        await emitAccountCreated(tx, 'acct_order', '@fifth'),
      ])),
    );
    // Rewriting the first rows moves them to the end of the table: a scan now meets them last.
    await dataSource.query(`UPDATE ${SCHEMA}.outbox SET key = key WHERE id = ANY($1)`, [
      [written[0]?.id, written[1]?.id],
    ]);
    const physical = (await dataSource.query(`SELECT id FROM ${SCHEMA}.outbox`)) as { id: string }[];
    expect(physical.map((row) => row.id)).not.toEqual(written.map((event) => event.id));

    const publisher = new RecordingPublisher();
    expect(await new OutboxRelay(dataSource, publisher, { schema: SCHEMA }).relayOnce()).toBe(5);

    const published = publisher.published.map((message) => (JSON.parse(message.value) as Envelope).id);
    expect(published).toEqual(written.map((event) => event.id));
  });
});
