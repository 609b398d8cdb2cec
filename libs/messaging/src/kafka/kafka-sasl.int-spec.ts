import { loadConfig } from '@cts/platform';
import { logLevel } from 'kafkajs';
import { createKafka, type KafkaConnection, kafkaConnectionOf } from './kafka-connection';
import { KafkaPublisher } from './kafka-publisher';
import { provisionTopics } from './topic-provisioner';

// deploy/local's broker has a second listener that wants SASL/PLAIN and exports where it is. A broker
// given by KAFKA_BROKERS (not started by deploy/local) has none: then there is nothing to connect to.
const listener = process.env.KAFKA_TEST_SASL_BROKERS;
const describeWithSasl = listener ? describe : describe.skip;

describeWithSasl('broker credentials on a broker that wants SASL/PLAIN', () => {
  const settingsWith = (password: string): KafkaConnection =>
    kafkaConnectionOf(
      loadConfig({
        KAFKA_BROKERS: listener,
        KAFKA_SASL_MECHANISM: 'PLAIN',
        KAFKA_SASL_USERNAME: process.env.KAFKA_TEST_SASL_USERNAME,
        KAFKA_SASL_PASSWORD: password,
      }),
    );
  const connection = settingsWith(process.env.KAFKA_TEST_SASL_PASSWORD ?? '');
  const topic = `sasl-${Date.now().toString(36)}.events`;

  it('provisions topics, publishes and consumes with the credentials from the configuration', async () => {
    await provisionTopics(connection, [{ name: topic, partitions: 2, retentionMs: 3_600_000 }]);
    const publisher = new KafkaPublisher({
      ...connection,
      clientId: 'sasl-test',
      logCreator: () => () => undefined,
    });
    const consumer = createKafka(connection, 'sasl-test', { logLevel: logLevel.NOTHING }).consumer({
      groupId: `sasl-test-${topic}`,
    });
    try {
      await publisher.publish([{ topic, key: 'k1', value: 'over SASL', headers: {} }]);
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      const received = await new Promise<string>((resolve) => {
        void consumer.run({ eachMessage: ({ message }) => Promise.resolve(resolve(String(message.value))) });
      });
      expect(received).toBe('over SASL');
    } finally {
      await consumer.disconnect();
      await publisher.close();
    }
  }, 60_000);

  it('is refused with a wrong password, and without credentials', async () => {
    const listTopics = async (settings: KafkaConnection) => {
      const admin = createKafka(settings, 'sasl-test', { logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      try {
        return await admin.listTopics();
      } finally {
        await admin.disconnect();
      }
    };
    await expect(listTopics(settingsWith('not-the-password'))).rejects.toThrow(/SASL|[Aa]uthentication/);
    await expect(listTopics({ brokers: connection.brokers })).rejects.toThrow();
  }, 60_000);
});
