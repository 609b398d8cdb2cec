import { type KafkaOptions } from '@nestjs/microservices';
import { type logCreator, logLevel, Partitioners } from 'kafkajs';
import { type KafkaConnection, kafkajsConnectionConfig } from './kafka-connection';
import { lingerWhileFlowing } from './kafkajs-fetch-linger';
import { fixKafkajsIdleLoop } from './kafkajs-idle-loop';

// Every Kafka client of the apps is configured here: fix kafkajs's idle timer loop before any connects.
fixKafkajsIdleLoop();

export interface KafkaSettings extends KafkaConnection {
  clientId: string;
  /** Appended to consumer group ids so parallel test runs never share a group. */
  groupSuffix?: string;
  /** Where kafkajs logs go (the app's structured logger); its own console logger otherwise. */
  logCreator?: logCreator;
  /** How long the group waits for a member that died without leaving (default 30 s). */
  sessionTimeoutMs?: number;
}

const clientConfig = (settings: KafkaSettings) => ({
  ...kafkajsConnectionConfig(settings),
  clientId: settings.clientId,
  logLevel: logLevel.WARN,
  ...(settings.logCreator ? { logCreator: settings.logCreator } : {}),
  retry: { retries: 8, initialRetryTime: 200 },
});

/**
 * Partitions one consumer handles at a time, each in order: like that many replicas, which every
 * handler must already be safe with (inbox, row locks), without their processes.
 */
export const PARTITIONS_CONSUMED_CONCURRENTLY = 4;

export const groupIdFor = (service: string, settings: KafkaSettings) =>
  `${service}${settings.groupSuffix ?? ''}`;

/**
 * How long the broker may hold a fetch that found nothing. A fetch returns as soon as any message
 * arrives, so this costs no latency; a short wait only buys idle polling (at 50–100 ms, every
 * consumer of the stack polled its topics 10–20 times a second: about a core at rest; at 1 s the
 * fetches still cost the stack ~2 % of a core). kafkajs heartbeats between fetches, so the wait
 * stays a fifth of the session timeout at most: 3 s with the default 30 s.
 */
export const fetchWaitMs = (settings: KafkaSettings) =>
  Math.min(3_000, Math.floor((settings.sessionTimeoutMs ?? 30_000) / 5));

/**
 * The Kafka server of a service: one consumer group per service, so replicas share partitions.
 * New groups start from the beginning of a topic: nothing published before a service first joined
 * is skipped. Up to `PARTITIONS_CONSUMED_CONCURRENTLY` partitions are handled at once. With
 * `fetchLingerMs`, the group lingers that long per fetch while messages flow (`lingerWhileFlowing`).
 */
export function kafkaServerOptions(
  service: string,
  settings: KafkaSettings,
  { fetchLingerMs = 0 }: { fetchLingerMs?: number } = {},
): Required<KafkaOptions>['options'] {
  const groupId = groupIdFor(service, settings);
  if (fetchLingerMs > 0) {
    lingerWhileFlowing(groupId, fetchLingerMs);
  }
  return {
    client: clientConfig(settings),
    consumer: {
      groupId,
      maxWaitTimeInMs: fetchWaitMs(settings),
      sessionTimeout: settings.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: 3_000,
      allowAutoTopicCreation: false,
    },
    subscribe: { fromBeginning: true },
    run: { partitionsConsumedConcurrently: PARTITIONS_CONSUMED_CONCURRENTLY },
    producer: { allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner },
    postfixId: '',
  };
}

/**
 * A request/reply client (the gateway's, or a service's that sends commands): replicas of one app
 * share its reply topic's partitions in one group.
 */
export function kafkaClientOptions(
  settings: KafkaSettings,
  replyGroup = 'gateway-replies',
): Required<KafkaOptions>['options'] {
  return {
    client: clientConfig(settings),
    consumer: {
      groupId: groupIdFor(replyGroup, settings),
      maxWaitTimeInMs: fetchWaitMs(settings),
      sessionTimeout: settings.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: 3_000,
      allowAutoTopicCreation: false,
    },
    producer: { allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner },
    postfixId: '',
  };
}
