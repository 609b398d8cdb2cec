import { ClientKafka } from '@nestjs/microservices';
import { allTopicSpecs, CommandTopics } from '@cts/contracts';
import { type CommandClient, InProcessClient, kafkaClientOptions, provisionTopics } from '@cts/messaging';
import { type Runtime } from './runtime';

/** The command client of the runtime's transport, and whether it can reach the broker now. */
export interface CommandTransport {
  client: CommandClient;
  isConnected(): boolean;
  close(): Promise<void>;
}

// A consumer group rebalancing (a replica joined or left) still delivers replies soon after: ready.
const USABLE_KAFKA_STATES = new Set(['connected', 'rebalancing']);

export async function connectCommandTransport(runtime: Runtime, replyGroup = 'gateway-replies'): Promise<CommandTransport> {
  if (runtime.bus) {
    const client = new InProcessClient(runtime.bus);
    await client.connect();
    return { client, isConnected: () => true, close: () => Promise.resolve(client.close()) };
  }
  if (!runtime.kafka) {
    throw new Error('The runtime has neither an in-process bus nor Kafka settings');
  }
  if (runtime.config.KAFKA_PROVISION_TOPICS) {
    await provisionTopics(runtime.kafka.brokers, allTopicSpecs());
  }
  const client = new ClientKafka(kafkaClientOptions(runtime.kafka, replyGroup));
  for (const topic of Object.values(CommandTopics)) {
    client.subscribeToResponseOf(topic);
  }
  let status = 'disconnected';
  const subscription = client.status.subscribe((next) => (status = String(next)));
  await client.connect();
  status = 'connected';
  return {
    client,
    isConnected: () => USABLE_KAFKA_STATES.has(status),
    close: async () => {
      subscription.unsubscribe();
      await client.close();
    },
  };
}
