import { Logger } from '@nestjs/common';
import { commandTopicOf, deadLetterTopic, serviceOf } from '@cts/contracts';
import { PARTITIONS_CONSUMED_CONCURRENTLY } from '../kafka/kafka.config';

type CommandHandler = (data: unknown) => Promise<unknown>;
type EventHandler = (data: unknown) => Promise<void>;
type BatchHandler = (data: unknown[]) => Promise<void>;

interface GroupSubscription {
  handler: EventHandler;
  /** One queue per partition: in order within one, concurrent across them. */
  partitions: Promise<void>[];
  /** A batch consumer's messages waiting per partition for the batch in progress to end. */
  batches?: { handler: BatchHandler; waiting: string[][]; scheduled: boolean[] };
}

/** The most messages a batch consumer gets in one call (a Kafka fetch is bounded in bytes instead). */
export const IN_PROCESS_MAX_BATCH = 500;

const RETRY_DELAYS_MS = [50, 200, 1000, 5000];

/**
 * Partitions per topic, consumed concurrently as a Kafka consumer does (`PARTITIONS_CONSUMED_CONCURRENTLY`):
 * messages of one key stay in order, different keys do not wait for each other.
 */
const IN_PROCESS_PARTITIONS = PARTITIONS_CONSUMED_CONCURRENTLY;

/** FNV-1a: a stable partition per key. A message without a key goes to partition 0. */
function partitionOf(key: string | undefined): number {
  if (key === undefined) {
    return 0;
  }
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  }
  return (hash >>> 0) % IN_PROCESS_PARTITIONS;
}

/**
 * The one-process mode's broker: same topic names and JSON envelopes as Kafka. Messages cross it as
 * JSON text, so no object is shared between sender and receiver, exactly as over the network.
 * Each consumer group gets every event of a topic, in publication order per key (partition); a
 * failing handler is retried like a Kafka consumer that did not commit, then the message goes to
 * the group's dead-letter topic (`<service>.dlq`).
 */
export class InProcessBus {
  private readonly logger = new Logger(InProcessBus.name);
  private readonly commandHandlers = new Map<string, CommandHandler>();
  private readonly subscriptions = new Map<string, Map<string, GroupSubscription>>();
  readonly deadLetters: { topic: string; value: string }[] = [];

  registerCommand(topic: string, handler: CommandHandler): void {
    this.commandHandlers.set(topic, handler);
  }

  unregisterCommand(topic: string): void {
    this.commandHandlers.delete(topic);
  }

  subscribe(topic: string, groupId: string, handler: EventHandler): void {
    const groups = this.subscriptions.get(topic) ?? new Map<string, GroupSubscription>();
    groups.set(groupId, {
      handler,
      partitions: Array.from({ length: IN_PROCESS_PARTITIONS }, () => Promise.resolve()),
    });
    this.subscriptions.set(topic, groups);
  }

  /**
   * A batch consumer: each partition's messages that arrived while its previous batch was handled go
   * to `handler` together (in order, up to IN_PROCESS_MAX_BATCH), as a Kafka consumer's `eachBatch`
   * gets what one fetch brought. A failing batch is retried whole; if it keeps failing, its messages
   * are handled one at a time so only the failing one goes to the dead-letter topic.
   */
  subscribeBatch(topic: string, groupId: string, handler: BatchHandler): void {
    const groups = this.subscriptions.get(topic) ?? new Map<string, GroupSubscription>();
    groups.set(groupId, {
      handler: (data) => handler([data]),
      partitions: Array.from({ length: IN_PROCESS_PARTITIONS }, () => Promise.resolve()),
      batches: {
        handler,
        waiting: Array.from({ length: IN_PROCESS_PARTITIONS }, () => []),
        scheduled: Array.from({ length: IN_PROCESS_PARTITIONS }, () => false),
      },
    });
    this.subscriptions.set(topic, groups);
  }

  unsubscribe(topic: string, groupId: string): void {
    this.subscriptions.get(topic)?.delete(groupId);
  }

  /**
   * A request on a command topic, answered by a handler registered for the envelope's command type
   * alone if there is one (test doubles serve single commands), else by the topic's. A command type given as
   * the topic goes to its service's topic, as the CommandBus sends it.
   */
  async request(topic: string, data: unknown): Promise<unknown> {
    const type = typeof data === 'object' && data !== null && 'type' in data ? String(data.type) : undefined;
    const handler =
      (type === undefined ? undefined : this.commandHandlers.get(type)) ??
      this.commandHandlers.get(topic) ??
      (serviceOf(topic) ? this.commandHandlers.get(commandTopicOf(topic)) : undefined);
    if (!handler) {
      throw new Error(`No handler is registered for ${topic}`);
    }
    const reply = await handler(JSON.parse(JSON.stringify(data)));
    return reply === undefined ? undefined : JSON.parse(JSON.stringify(reply));
  }

  publish(topic: string, value: string, key?: string): void {
    if (topic.endsWith('.dlq')) {
      this.deadLetters.push({ topic, value });
    }
    const partition = partitionOf(key);
    for (const [groupId, subscription] of this.subscriptions.get(topic) ?? []) {
      const batches = subscription.batches;
      if (batches) {
        batches.waiting[partition]?.push(value);
        if (!batches.scheduled[partition]) {
          batches.scheduled[partition] = true;
          subscription.partitions[partition] = (subscription.partitions[partition] ?? Promise.resolve()).then(
            () => this.deliverBatches(topic, groupId, subscription, partition),
          );
        }
        continue;
      }
      subscription.partitions[partition] = (subscription.partitions[partition] ?? Promise.resolve()).then(
        () => this.deliver(topic, groupId, subscription.handler, value),
      );
    }
  }

  /** Resolves when every message published so far has been handled by every group. */
  async drain(): Promise<void> {
    for (;;) {
      const queues = this.queues();
      await Promise.all(queues);
      const after = this.queues();
      if (after.every((queue, i) => queue === queues[i])) {
        return;
      }
    }
  }

  private queues(): Promise<void>[] {
    return [...this.subscriptions.values()].flatMap((groups) =>
      [...groups.values()].flatMap((s) => s.partitions),
    );
  }

  /** Handles the partition's waiting messages batch by batch until none is left. */
  private async deliverBatches(
    topic: string,
    groupId: string,
    subscription: GroupSubscription,
    partition: number,
  ): Promise<void> {
    const batches = subscription.batches;
    const waiting = batches?.waiting[partition];
    if (!batches || !waiting) {
      return;
    }
    while (waiting.length > 0) {
      const values = waiting.splice(0, IN_PROCESS_MAX_BATCH);
      if (!(await this.tryBatch(batches.handler, values))) {
        for (const value of values) {
          await this.deliver(topic, groupId, subscription.handler, value);
        }
      }
    }
    batches.scheduled[partition] = false;
  }

  /** The batch handled, retried like an uncommitted Kafka batch; false once the retries are spent. */
  private async tryBatch(handler: BatchHandler, values: string[]): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await handler(values.map((value) => JSON.parse(value) as unknown));
        return true;
      } catch (error) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          this.logger.warn(`a batch of ${values.length} failed, handling them one by one: ${String(error)}`);
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async deliver(topic: string, groupId: string, handler: EventHandler, value: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await handler(JSON.parse(value));
        return;
      } catch (error) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          this.logger.error(`${groupId} gave up on a message of ${topic}: ${String(error)}`);
          this.publish(
            deadLetterTopic(groupId),
            JSON.stringify({ reason: String(error), consumer: groupId, topic, original: value }),
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}

let defaultBus: InProcessBus | undefined;

/** The process-wide bus shared by every module of the one-process mode. */
export function defaultInProcessBus(): InProcessBus {
  defaultBus ??= new InProcessBus();
  return defaultBus;
}
