import { type TopicSpec } from '@cts/contracts';
import { logLevel } from 'kafkajs';
import { createKafka, type KafkaConnection } from './kafka-connection';

export interface ProvisionReport {
  created: string[];
  grown: string[];
}

/**
 * Creates missing topics with their partition counts and grows topics that have fewer partitions
 * than specified. Idempotent and safe to run from several processes at once.
 */
export async function provisionTopics(
  connection: KafkaConnection,
  specs: TopicSpec[],
  replicationFactor = 1,
): Promise<ProvisionReport> {
  const admin = createKafka(connection, 'cts-topic-provisioner', { logLevel: logLevel.ERROR }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((spec) => !existing.has(spec.name));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((spec) => ({
          topic: spec.name,
          numPartitions: spec.partitions,
          replicationFactor,
          configEntries: [{ name: 'retention.ms', value: String(spec.retentionMs) }],
        })),
      });
    }
    const present = specs.filter((spec) => existing.has(spec.name));
    const metadata =
      present.length > 0
        ? await admin.fetchTopicMetadata({ topics: present.map((s) => s.name) })
        : { topics: [] };
    const toGrow = present.filter((spec) => {
      const topic = metadata.topics.find((t) => t.name === spec.name);
      return topic !== undefined && topic.partitions.length < spec.partitions;
    });
    if (toGrow.length > 0) {
      await admin.createPartitions({
        topicPartitions: toGrow.map((spec) => ({ topic: spec.name, count: spec.partitions })),
      });
    }
    return { created: missing.map((s) => s.name), grown: toGrow.map((s) => s.name) };
  } finally {
    await admin.disconnect();
  }
}
