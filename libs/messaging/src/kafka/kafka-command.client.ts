import { ClientKafka } from '@nestjs/microservices';
import { replyTopic } from '@cts/contracts';
import { kafkaClientOptions, type KafkaSettings } from './kafka.config';

/**
 * Nest's Kafka client with one reply topic for the whole app (`gateway.replies`) instead of one per
 * command topic. Its replicas share that topic's partitions in one group; each asks for its replies
 * on the lowest partition it holds, so a reply reaches the replica that asked.
 */
export class KafkaCommandClient extends ClientKafka {
  private readonly replies: string;

  constructor(settings: KafkaSettings, app: string, replyGroup = `${app}-replies`) {
    super(kafkaClientOptions(settings, replyGroup));
    this.replies = replyTopic(app);
    this.responsePatterns.push(this.replies);
  }

  protected override getResponsePatternName(): string {
    return this.replies;
  }
}
