import { Partitioners, type Producer } from 'kafkajs';
import { MessagePublisher, type OutgoingMessage } from '../publisher';
import { createKafka } from './kafka-connection';
import { type KafkaSettings } from './kafka.config';

/** Idempotent producer, acks from all in-sync replicas: a publish that resolves is durable. */
export class KafkaPublisher extends MessagePublisher {
  private readonly producer: Producer;
  private connected: Promise<void> | undefined;

  constructor(settings: KafkaSettings) {
    super();
    const kafka = createKafka(settings, `${settings.clientId}-publisher`, {
      logCreator: settings.logCreator,
    });
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  async publish(messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) {
      return;
    }
    this.connected ??= this.producer.connect();
    await this.connected;
    const byTopic = new Map<string, OutgoingMessage[]>();
    for (const message of messages) {
      byTopic.set(message.topic, [...(byTopic.get(message.topic) ?? []), message]);
    }
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic,
        messages: list.map(({ key, value, headers }) => ({ key, value, headers })),
      })),
    });
  }

  async close(): Promise<void> {
    if (this.connected) {
      await this.producer.disconnect();
      this.connected = undefined;
    }
  }
}
