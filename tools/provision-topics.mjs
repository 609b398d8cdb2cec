// Creates every topic with its partition count (grows partitions, never shrinks): the topic Job of
// the Kubernetes chart and the init step of docker-compose. Needs KAFKA_BROKERS.
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { buildIfPossible, repoRoot } from './projects.mjs';

await buildIfPossible();
const require = createRequire(import.meta.url);
const { allTopicSpecs } = require(join(repoRoot, 'dist/libs/contracts'));
const { provisionTopics, kafkaConnectionOf } = require(join(repoRoot, 'dist/libs/messaging'));
const { loadConfig } = require(join(repoRoot, 'dist/libs/platform'));
if (!process.env.KAFKA_BROKERS) {
  console.error('KAFKA_BROKERS must be set');
  process.exit(2);
}
// Partition counts and replication per topic family from the environment (the Helm chart's values).
const number = (name) => (process.env[name] ? Number(process.env[name]) : undefined);
const partitions = Object.fromEntries(
  Object.entries({
    command: number('TOPIC_PARTITIONS_COMMAND'),
    reply: number('TOPIC_PARTITIONS_REPLY'),
    event: number('TOPIC_PARTITIONS_EVENT'),
    deadLetter: number('TOPIC_PARTITIONS_DEAD_LETTER'),
  }).filter(([, value]) => value !== undefined),
);
const replicationFactor = number('TOPIC_REPLICATION_FACTOR') ?? 1;
// Brokers, SASL and TLS exactly as the apps read them (KAFKA_BROKERS, KAFKA_SASL_*, KAFKA_SSL).
const report = await provisionTopics(
  kafkaConnectionOf(loadConfig()),
  allTopicSpecs(partitions),
  replicationFactor,
);
console.log(`topics: ${report.created.length} created, ${report.grown.length} grown`);
