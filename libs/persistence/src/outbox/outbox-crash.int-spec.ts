import { allTopicSpecs, EventTopics, type Envelope } from '@cts/contracts';
import { createTestDatabase, eventually, type TestDatabase } from '@cts/testing';
import { type Consumer, Kafka, logLevel } from 'kafkajs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { type DataSource } from 'typeorm';
import { KafkaPublisher, parseBrokers, provisionTopics } from '@cts/messaging';
import { UnitOfWork } from '../unit-of-work';
import { OutboxRelay } from './outbox-relay';
import { emitAccountCreated, openOutboxSchema } from './testing/outbox-schema';

const SCHEMA = 'crash_test';
const brokers = () => parseBrokers(process.env.KAFKA_BROKERS ?? '');

describe('outbox relay crash between publish and mark-sent (real Kafka and PostgreSQL)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let consumer: Consumer;
  const received: Envelope[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await openOutboxSchema(db.url, SCHEMA);
    await dataSource.query(`CREATE TABLE ${SCHEMA}.effects (event_id uuid NOT NULL)`);
    await provisionTopics({ brokers: brokers() }, allTopicSpecs());
    consumer = new Kafka({
      brokers: brokers(),
      clientId: 'crash-observer',
      logLevel: logLevel.NOTHING,
    }).consumer({
      groupId: `crash-observer-${Date.now()}`,
      maxWaitTimeInMs: 100,
    });
    await consumer.connect();
    await consumer.subscribe({ topic: EventTopics.account, fromBeginning: true });
    await consumer.run({
      eachMessage: ({ message }) => {
        received.push(JSON.parse(message.value?.toString() ?? '{}') as Envelope);
        return Promise.resolve();
      },
    });
  }, 60_000);

  afterAll(async () => {
    await consumer.disconnect();
    await dataSource.destroy();
    await db.drop();
  });

  it('publishes the event after the relay is killed, and the consumer’s inbox applies it once', async () => {
    const unitOfWork = new UnitOfWork(dataSource, SCHEMA);
    const event = await unitOfWork.run((tx) => emitAccountCreated(tx, 'acct_crash', '@crash'));

    const child = spawn(
      process.execPath,
      [join(__dirname, '../../../testing/src/children/relay-then-die.cjs'), db.url, SCHEMA],
      {
        env: process.env,
        stdio: 'inherit',
      },
    );
    const [, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect(signal).toBe('SIGKILL');
    const [row] = (await dataSource.query(`SELECT sent_at FROM ${SCHEMA}.outbox WHERE id = $1`, [
      event.id,
    ])) as { sent_at: Date | null }[];
    expect(row?.sent_at).toBeNull();

    const publisher = new KafkaPublisher({ brokers: brokers(), clientId: 'crash-test-restarted' });
    expect(await new OutboxRelay(dataSource, publisher, { schema: SCHEMA }).relayOnce()).toBe(1);
    await publisher.close();
    const [after] = (await dataSource.query(`SELECT sent_at FROM ${SCHEMA}.outbox WHERE id = $1`, [
      event.id,
    ])) as { sent_at: Date | null }[];
    expect(after?.sent_at).not.toBeNull();

    await eventually(() => expect(received.filter((e) => e.id === event.id)).toHaveLength(2), 20_000);
    for (const delivery of received.filter((e) => e.id === event.id)) {
      await unitOfWork.once(delivery, 'crash-test-consumer', (tx) =>
        tx.manager.query(`INSERT INTO ${SCHEMA}.effects (event_id) VALUES ($1)`, [delivery.id]),
      );
    }
    const [{ count }] = (await dataSource.query(`SELECT count(*)::int AS count FROM ${SCHEMA}.effects`)) as [
      { count: number },
    ];
    expect(count).toBe(1);
  }, 60_000);
});
