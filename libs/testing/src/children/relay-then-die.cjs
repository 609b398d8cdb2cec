// Child process for the outbox crash test: relays one batch to Kafka, then dies by SIGKILL after the
// publish and before the row is marked sent — the worst moment for an outbox relay to crash.
const { join } = require('node:path');
const repo = join(__dirname, '../../../..');
const { KafkaPublisher, parseBrokers } = require(join(repo, 'dist/libs/messaging'));
const { createServiceDataSource, OutboxRelay } = require(join(repo, 'dist/libs/persistence'));

async function main() {
  const [url, schema] = process.argv.slice(2);
  const dataSource = createServiceDataSource({ schema, url, entities: [], migrations: [] });
  await dataSource.initialize();
  const kafka = new KafkaPublisher({
    brokers: parseBrokers(process.env.KAFKA_BROKERS),
    clientId: 'relay-then-die',
  });
  const dying = {
    async publish(messages) {
      await kafka.publish(messages);
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => undefined);
    },
    close: () => Promise.resolve(),
  };
  await new OutboxRelay(dataSource, dying, { schema }).relayOnce();
}

main().catch((error) => {
  console.error(error);
  process.exit(3);
});
