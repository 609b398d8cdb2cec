import { createKafka, type KafkaSettings } from '@cts/messaging';
import { consumerLag } from '@cts/platform';
import { logLevel } from 'kafkajs';

/**
 * Samples a consumer group's lag (end offsets minus committed offsets, per topic) every `everyMs`
 * into `cts_consumer_lag_messages`: the signal to scale consumers on.
 */
export function sampleConsumerLag(
  settings: KafkaSettings,
  groupId: string,
  everyMs = 15_000,
): () => Promise<void> {
  const admin = createKafka(settings, `${settings.clientId}-lag`, { logLevel: logLevel.NOTHING }).admin();
  let connected: Promise<void> | null = null;
  const sample = async () => {
    connected ??= admin.connect();
    await connected;
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId })) {
      const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
      const lag = partitions.reduce((sum, p) => {
        const committed = Number(p.offset);
        const end = ends.get(p.partition) ?? 0;
        return sum + Math.max(0, committed < 0 ? end : end - committed);
      }, 0);
      consumerLag.set({ group: groupId, topic }, lag);
    }
  };
  const run = () => void sample().catch(() => undefined);
  const first = setTimeout(run, 2_000);
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    if (connected) {
      await admin.disconnect();
    }
  };
}
