import { ClientKafka } from '@nestjs/microservices';
import { replyTopic } from '@cts/contracts';
import { kafkaClientOptions, type KafkaSettings } from './kafka.config';
import { REPLY_URL_HEADER, type DirectReply } from './direct-reply';

/**
 * Nest's Kafka client with one reply topic for the whole app (`gateway.replies`) instead of one per
 * command topic. Its replicas share that topic's partitions in one group; each asks for its replies
 * on the lowest partition it holds, so a reply reaches the replica that asked.
 *
 * A replica that serves `INTERNAL_REPLY_PATH` (`answerAt`) also names that address on its commands,
 * and the handling service posts the reply there; the reply topic stays the way back whenever that
 * post fails (docs/decisions.md, "Replies straight to the replica that asked").
 */
export class KafkaCommandClient extends ClientKafka {
  private readonly replies: string;
  private replyUrl: string | undefined;

  constructor(settings: KafkaSettings, app: string, replyGroup = `${app}-replies`) {
    super(kafkaClientOptions(settings, replyGroup));
    this.replies = replyTopic(app);
    this.responsePatterns.push(this.replies);
    const serializer = this.serializer;
    this.serializer = {
      serialize: (value: Parameters<typeof serializer.serialize>[0], options?: Record<string, unknown>) => {
        const packet = serializer.serialize(value, options) as { headers: Record<string, string> };
        if (this.replyUrl !== undefined) {
          packet.headers[REPLY_URL_HEADER] = this.replyUrl;
        }
        return packet;
      },
    };
  }

  /** Services post this replica's replies to `url` from now on. */
  answerAt(url: string): void {
    this.replyUrl = url;
  }

  /** A reply posted to this replica: to the request waiting for it, as if read from the reply topic. */
  receiveReply(reply: DirectReply): boolean {
    const callback = this.routingMap.get(reply.id) as ((packet: unknown) => void) | undefined;
    if (!callback) {
      return false;
    }
    callback({ err: reply.err, response: reply.response, isDisposed: reply.isDisposed === true });
    return true;
  }

  protected override getResponsePatternName(): string {
    return this.replies;
  }
}
