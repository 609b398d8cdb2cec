import { eventually } from '@cts/testing';
import { Kafka, logLevel } from 'kafkajs';
import { parseBrokers } from './kafka-connection';
import { provisionTopics } from './topic-provisioner';

describe('topic provisioning on a real broker', () => {
  const brokers = parseBrokers(process.env.KAFKA_BROKERS ?? '');
  const suffix = Date.now().toString(36);
  const specs = [
    { name: `prov-${suffix}.events`, partitions: 12, retentionMs: 604_800_000 },
    { name: `prov-${suffix}.command`, partitions: 6, retentionMs: 86_400_000 },
  ];

  async function partitionCounts(): Promise<Record<string, number>> {
    const admin = new Kafka({ brokers, clientId: 'prov-test', logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.name) });
      return Object.fromEntries(topics.map((t) => [t.name, t.partitions.length]));
    } finally {
      await admin.disconnect();
    }
  }

  it('creates each topic with its explicit partition count, and is idempotent', async () => {
    await provisionTopics({ brokers }, specs);
    expect(await partitionCounts()).toEqual({ [specs[0]?.name ?? '']: 12, [specs[1]?.name ?? '']: 6 });
    await provisionTopics({ brokers }, specs);
    expect(await partitionCounts()).toEqual({ [specs[0]?.name ?? '']: 12, [specs[1]?.name ?? '']: 6 });
  }, 60_000);

  it('grows a topic that has fewer partitions than asked, never shrinks one', async () => {
    await provisionTopics(
      { brokers },
      specs.map((s) => ({ ...s, partitions: s.partitions === 6 ? 8 : 3 })),
    );
    // The broker reports new partitions in its metadata a moment after createPartitions returns.
    await eventually(
      async () =>
        expect(await partitionCounts()).toEqual({ [specs[0]?.name ?? '']: 12, [specs[1]?.name ?? '']: 8 }),
      10_000,
    );
  }, 60_000);
});
