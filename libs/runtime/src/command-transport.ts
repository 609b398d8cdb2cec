import { allTopicSpecs } from '@cts/contracts';
import {
  type CommandClient,
  InProcessClient,
  isDirectReply,
  KafkaCommandClient,
  parseQueryRoutes,
  provisionTopics,
  QueryRoutingClient,
} from '@cts/messaging';
import { type Runtime } from './runtime';

/** The command client of the runtime's transport, and whether it can reach the broker now. */
export interface CommandTransport {
  client: CommandClient;
  isConnected(): boolean;
  /** Services post replies to `url` (this replica's internal port) rather than the reply topic. */
  answerAt(url: string): void;
  /** A reply posted to this replica: true when a request was waiting for it. */
  receiveReply(reply: unknown): boolean;
  close(): Promise<void>;
}

// A consumer group rebalancing (a replica joined or left) still delivers replies soon after: ready.
const USABLE_KAFKA_STATES = new Set(['connected', 'rebalancing']);

/** `app` names the reply topic (`<app>.replies`) and the group its replicas share (`<app>-replies`). */
export async function connectCommandTransport(runtime: Runtime, app = 'gateway'): Promise<CommandTransport> {
  if (runtime.bus) {
    const client = new InProcessClient(runtime.bus);
    await client.connect();
    return {
      client,
      isConnected: () => true,
      answerAt: () => undefined,
      receiveReply: () => false,
      close: () => Promise.resolve(client.close()),
    };
  }
  if (!runtime.kafka) {
    throw new Error('The runtime has neither an in-process bus nor Kafka settings');
  }
  const routes = parseQueryRoutes(runtime.config.SERVICE_QUERY_URLS);
  if (runtime.config.KAFKA_PROVISION_TOPICS) {
    await provisionTopics(runtime.kafka, allTopicSpecs());
  }
  const client = new KafkaCommandClient(runtime.kafka, app);
  let status = 'disconnected';
  const subscription = client.status.subscribe((next) => (status = String(next)));
  await client.connect();
  status = 'connected';
  return {
    client: routes.size > 0 ? new QueryRoutingClient(client, routes, runtime.config.INTERNAL_TOKEN) : client,
    isConnected: () => USABLE_KAFKA_STATES.has(status),
    answerAt: (url) => client.answerAt(url),
    receiveReply: (reply) => isDirectReply(reply) && client.receiveReply(reply),
    close: async () => {
      subscription.unsubscribe();
      await client.close();
    },
  };
}
