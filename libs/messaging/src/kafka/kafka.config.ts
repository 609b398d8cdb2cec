import { type KafkaOptions } from '@nestjs/microservices';
import { type logCreator, logLevel, Partitioners } from 'kafkajs';

export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  /** Appended to consumer group ids so parallel test runs never share a group. */
  groupSuffix?: string;
  /** Where kafkajs logs go (the app's structured logger); its own console logger otherwise. */
  logCreator?: logCreator;
  /** How long the group waits for a member that died without leaving (default 30 s). */
  sessionTimeoutMs?: number;
}

export function parseBrokers(value: string): string[] {
  return value
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
}

const clientConfig = (settings: KafkaSettings) => ({
  brokers: settings.brokers,
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

export const groupIdFor = (service: string, settings: KafkaSettings) => `${service}${settings.groupSuffix ?? ''}`;

/**
 * The Kafka server of a service: one consumer group per service, so replicas share partitions.
 * New groups start from the beginning of a topic: nothing published before a service first joined
 * is skipped. Commands are latency-sensitive, so the broker is polled every 100 ms, not every 5 s.
 * Up to `PARTITIONS_CONSUMED_CONCURRENTLY` partitions are handled at once.
 */
export function kafkaServerOptions(service: string, settings: KafkaSettings): Required<KafkaOptions>['options'] {
  return {
    client: clientConfig(settings),
    consumer: {
      groupId: groupIdFor(service, settings),
      maxWaitTimeInMs: 100,
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
 * share the reply topics' partitions in one group.
 */
export function kafkaClientOptions(settings: KafkaSettings, replyGroup = 'gateway-replies'): Required<KafkaOptions>['options'] {
  return {
    client: clientConfig(settings),
    consumer: {
      groupId: groupIdFor(replyGroup, settings),
      maxWaitTimeInMs: 50,
      sessionTimeout: settings.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: 3_000,
      allowAutoTopicCreation: false,
    },
    producer: { allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner },
    postfixId: '',
  };
}
