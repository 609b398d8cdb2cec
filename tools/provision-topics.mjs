// Creates every topic with its partition count (grows partitions, never shrinks): the topic Job of
// the Kubernetes chart and the init step of docker-compose. Needs KAFKA_BROKERS.
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { buildIfPossible, repoRoot } from './projects.mjs';

await buildIfPossible();
const require = createRequire(import.meta.url);
const { allTopicSpecs } = require(join(repoRoot, 'dist/libs/contracts'));
const { provisionTopics, parseBrokers } = require(join(repoRoot, 'dist/libs/messaging'));
if (!process.env.KAFKA_BROKERS) {
  console.error('KAFKA_BROKERS must be set');
  process.exit(2);
}
const report = await provisionTopics(parseBrokers(process.env.KAFKA_BROKERS), allTopicSpecs());
console.log(`topics: ${report.created.length} created, ${report.grown.length} grown`);
