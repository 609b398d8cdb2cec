// The floor for a command over Kafka: a bare kafkajs request/reply round trip (client → request
// topic → responder → reply topic → client) on a given broker, no framework, acks from all replicas
// as our producers use. Returns p50/p90 in ms.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from './projects.mjs';

const { Kafka, logLevel } = createRequire(import.meta.url)(join(repoRoot, 'node_modules/kafkajs'));

export async function bareKafkaRoundTrip(brokers, n, maxWaitTimeInMs) {
  const kafka = new Kafka({ clientId: 'bench-rtt', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const suffix = Date.now();
  const [req, rep] = [`rtt.req.${suffix}`, `rtt.rep.${suffix}`];
  await admin.createTopics({
    topics: [
      { topic: req, numPartitions: 1 },
      { topic: rep, numPartitions: 1 },
    ],
    waitForLeaders: true,
  });
  const producer = kafka.producer();
  const responder = kafka.consumer({ groupId: `rtt-resp-${suffix}`, maxWaitTimeInMs });
  const client = kafka.consumer({ groupId: `rtt-client-${suffix}`, maxWaitTimeInMs });
  await Promise.all([producer.connect(), responder.connect(), client.connect()]);
  await responder.subscribe({ topic: req });
  await client.subscribe({ topic: rep });
  const waiting = new Map();
  await responder.run({
    eachMessage: async ({ message }) =>
      void (await producer.send({
        topic: rep,
        acks: -1,
        messages: [{ key: message.key, value: message.value }],
      })),
  });
  await client.run({ eachMessage: async ({ message }) => waiting.get(message.key.toString())?.() });
  await new Promise((resolve) => setTimeout(resolve, 4000));
  const xs = [];
  for (let i = 0; i < n + 10; i++) {
    const id = `m${i}`;
    const started = performance.now();
    await new Promise((resolve) => {
      waiting.set(id, resolve);
      void producer.send({ topic: req, acks: -1, messages: [{ key: id, value: '{}' }] });
    });
    if (i >= 10) xs.push(performance.now() - started);
  }
  await Promise.all([responder.disconnect(), client.disconnect(), producer.disconnect()]);
  await admin.deleteTopics({ topics: [req, rep] }).catch(() => {});
  await admin.disconnect();
  const sorted = xs.sort((a, b) => a - b);
  return { p50: sorted[Math.floor(0.5 * sorted.length)], p90: sorted[Math.floor(0.9 * sorted.length)] };
}
