import {
  type KafkaContext,
  type KafkaOptions,
  type KafkaStatus,
  type OutgoingResponse,
  ServerKafka,
} from '@nestjs/microservices';
import {
  type Consumer,
  type EachBatchPayload,
  type KafkaMessage,
  type RecordMetadata,
} from '@nestjs/microservices/external/kafka.interface';
import { isObservable, lastValueFrom } from 'rxjs';
import { isBatchHandler } from '../handlers/event-batch';
import { isReplyUrl, postReply, REPLY_URL_HEADER } from './direct-reply';

/** The most messages of a fetch one batch handler call gets (a fetch holds up to 1 MB per partition). */
export const KAFKA_MAX_BATCH = 500;

/** How long handled messages may wait for their offsets' commit (a commit per message cost more). */
export const COMMIT_INTERVAL_MS = 1_000;

/**
 * Nest's Kafka server on kafkajs's `eachBatch`, with batch handlers (`@OnEventBatch`): a batch
 * handler gets the messages a fetch brought for a partition in one call; a topic without one is
 * handled message by message in order, exactly as `eachMessage` would (the handler, then its
 * offset). An offset is resolved only after its handler resolved (the batch is stored), so a crash
 * before that redelivers the whole run and the handler's inbox dedupes it.
 *
 * Resolved offsets are committed at most once per `COMMIT_INTERVAL_MS` (and when the group
 * rebalances or the server closes), not after every fetch as kafkajs would: each commit is a broker
 * request and a write to `__consumer_offsets`, and a stack of six consumers paid two to four of
 * them per transfer. A crash redelivers up to that much more, which every handler already dedupes.
 */
export class KafkaBatchServer extends ServerKafka {
  private pendingCommit: (() => Promise<void>) | undefined;
  private commitTimer: NodeJS.Timeout | undefined;
  private readonly internalToken: string | undefined;

  /** `internalToken` (INTERNAL_TOKEN) goes with every reply posted straight to the replica that asked. */
  constructor(
    options: Required<KafkaOptions>['options'],
    { internalToken }: { internalToken?: string } = {},
  ) {
    super(options);
    this.internalToken = internalToken;
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    const topics = [...this.messageHandlers.keys()];
    if (topics.length > 0) {
      await consumer.subscribe({ ...(this.options.subscribe ?? {}), topics });
    }
    consumer.on(consumer.events.REBALANCING, () => void this.commitHandled());
    // Nest's server reports `rebalancing` and never back: a replica joining or leaving left the
    // others not ready (`/readyz`) for good while they consumed. Joined again, it consumes.
    consumer.on(consumer.events.GROUP_JOIN, () => this._status$.next('connected' as KafkaStatus));
    await consumer.run({
      ...(this.options.run ?? {}),
      autoCommit: false,
      // Only what was handled is resolved: a batch left halfway (stopping, a rebalance) is fetched again.
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.handleBatch(payload),
    });
  }

  /** Stops taking messages, lets the batches in hand finish, commits them, then disconnects. */
  override async close(): Promise<void> {
    await this.consumer?.stop();
    await this.commitHandled();
    await super.close();
  }

  /** Commits every offset resolved so far (what handlers finished), if any wait. */
  private async commitHandled(): Promise<void> {
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    const commit = this.pendingCommit;
    this.pendingCommit = undefined;
    try {
      await commit?.();
    } catch (error) {
      // Not committed: those messages come again after a restart or a rebalance, and are deduped.
      this.logger.warn(`offsets not committed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private commitSoon(payload: EachBatchPayload): void {
    this.pendingCommit = async () => {
      await payload.commitOffsetsIfNecessary(payload.uncommittedOffsets());
    };
    this.commitTimer ??= setTimeout(() => void this.commitHandled(), COMMIT_INTERVAL_MS).unref();
  }

  /**
   * A command whose sender named its replica's reply address gets its reply there, straight; the
   * reply topic carries it when that fails (the replica restarted, or cannot be reached).
   */
  override async sendMessage(
    message: OutgoingResponse,
    replyTopic: string,
    replyPartition: string | undefined | null,
    correlationId: string,
    context: KafkaContext,
  ): Promise<RecordMetadata[]> {
    const url = (context.getMessage().headers as Record<string, unknown> | undefined)?.[REPLY_URL_HEADER];
    const { response, err, isDisposed } = message as {
      response?: unknown;
      err?: unknown;
      isDisposed?: boolean;
    };
    const reply = { id: correlationId, response, err, isDisposed };
    if (isReplyUrl(url) && (await postReply(url, reply, this.internalToken))) {
      return [];
    }
    return super.sendMessage(message, replyTopic, replyPartition, correlationId, context);
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const handler = this.messageHandlers.get(batch.topic);
    const proceed = () => payload.isRunning() && !payload.isStale();
    const done = async (offset: string) => {
      payload.resolveOffset(offset);
      this.commitSoon(payload);
      await payload.heartbeat();
    };
    if (handler && isBatchHandler(handler)) {
      for (let start = 0; start < batch.messages.length && proceed(); start += KAFKA_MAX_BATCH) {
        const run = batch.messages.slice(start, start + KAFKA_MAX_BATCH);
        const data = await Promise.all(
          run.map((message) => this.decode(batch.topic, batch.partition, message)),
        );
        const result: unknown = await handler(data);
        if (isObservable(result)) {
          await lastValueFrom(result, { defaultValue: undefined });
        }
        const last = run[run.length - 1];
        if (last) {
          await done(last.offset);
        }
      }
      return;
    }
    for (const message of batch.messages) {
      if (!proceed()) {
        return;
      }
      await this.handleMessage({
        topic: batch.topic,
        partition: batch.partition,
        message,
        heartbeat: () => payload.heartbeat(),
        pause: () => payload.pause(),
      });
      await done(message.offset);
    }
  }

  /** A message's value as Nest's deserializer gives it to a handler (the parsed JSON envelope). */
  private async decode(topic: string, partition: number, message: KafkaMessage): Promise<unknown> {
    const raw = this.parser
      ? this.parser.parse<KafkaMessage & { topic: string; partition: number }>({
          ...message,
          topic,
          partition,
        })
      : message;
    const packet = (await this.deserializer.deserialize(raw, { channel: topic })) as { data?: unknown };
    return packet.data;
  }
}
