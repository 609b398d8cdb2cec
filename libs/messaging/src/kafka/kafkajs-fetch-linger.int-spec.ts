import { eventually } from '@cts/testing';
import { type Consumer, Kafka, logLevel } from 'kafkajs';
import { kafkaServerOptions } from './kafka.config';
import { parseBrokers } from './kafka-connection';
import { lingerWhileFlowing } from './kafkajs-fetch-linger';
import { provisionTopics } from './topic-provisioner';

const LINGER_MS = 800;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a consumer group that lingers while messages flow (real broker)', () => {
  const brokers = parseBrokers(process.env.KAFKA_BROKERS ?? '');
  const kafka = new Kafka({ brokers, clientId: 'linger-test', logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  let consumer: Consumer | undefined;

  beforeAll(async () => {
    await producer.connect();
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await producer.disconnect();
  });

  it('takes the first message at once, then what arrives within the linger in one batch, then the first at once again', async () => {
    const suffix = Date.now().toString(36);
    const topic = `linger-${suffix}.events`;
    await provisionTopics({ brokers }, [{ name: topic, partitions: 1, retentionMs: 3_600_000 }]);
    // The service's own consumer settings (a fetch that finds nothing waits 3 s), then the linger.
    const { consumer: options } = kafkaServerOptions('lingering', { brokers, clientId: 'linger-test' });
    const groupId = `lingering-${suffix}`;
    lingerWhileFlowing(groupId, LINGER_MS);
    consumer = kafka.consumer({ ...options, groupId });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const batches: { values: string[]; at: number }[] = [];
    await consumer.run({
      eachBatch: async ({ batch }) => {
        batches.push({ values: batch.messages.map((m) => String(m.value)), at: Date.now() });
        await Promise.resolve();
      },
    });
    await sleep(1_000); // joined, first fetch out
    const send = async (value: string) => {
      const sentAt = Date.now();
      await producer.send({ topic, messages: [{ value }] });
      return sentAt;
    };

    const firstSent = await send('first');
    await eventually(() => expect(batches.flatMap((b) => b.values)).toContain('first'), 10_000);
    // Nothing flowed before it: answered at the first message, not after a linger.
    expect(batches[0]?.values).toEqual(['first']);
    expect((batches[0]?.at ?? Infinity) - firstSent).toBeLessThan(LINGER_MS);

    // Flowing now: two messages 200 ms apart come in one fetch (without the linger, two).
    await send('second');
    await sleep(200);
    await send('third');
    await eventually(() => expect(batches.flatMap((b) => b.values)).toContain('third'), 10_000);
    expect(batches.slice(1).map((b) => b.values)).toEqual([['second', 'third']]);

    // A lingering fetch that brought nothing ends the flow: the next message is taken at once again.
    await sleep(3 * LINGER_MS);
    const lastSent = await send('after a pause');
    await eventually(() => expect(batches.flatMap((b) => b.values)).toContain('after a pause'), 10_000);
    expect((batches.at(-1)?.at ?? Infinity) - lastSent).toBeLessThan(LINGER_MS);
  }, 30_000);
});
