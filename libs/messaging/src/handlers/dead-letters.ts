import { Injectable, Logger } from '@nestjs/common';
import { deadLetterTopic } from '@cts/contracts';
import { MessagePublisher } from '../publisher';

/**
 * Sends a message that cannot be handled to the consumer's dead-letter topic (`<service>.dlq`) with
 * the reason and the topic it came from: never dropped silently.
 */
@Injectable()
export class DeadLetters {
  private readonly logger = new Logger(DeadLetters.name);

  constructor(private readonly publisher: MessagePublisher) {}

  async send(topic: string, consumer: string, original: unknown, reason: string): Promise<void> {
    this.logger.warn(`dead-lettering a message of ${topic} for ${consumer}: ${reason}`);
    const key =
      typeof original === 'object' && original !== null && 'id' in original ? String(original.id) : 'unknown';
    await this.publisher.publish([
      {
        topic: deadLetterTopic(consumer),
        key,
        value: JSON.stringify({ reason, consumer, topic, failed_at: new Date().toISOString(), original }),
      },
    ]);
  }
}
