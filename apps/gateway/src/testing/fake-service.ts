import {
  type CommandContract,
  contextFrom,
  createEnvelope,
  type Envelope,
  envelopeSchema,
  type ErrorBody,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { type InProcessBus } from '@cts/messaging';

export type FakeHandler<C extends CommandContract> = (
  request: RequestOf<C>,
  envelope: Envelope<RequestOf<C>>,
) => Result<ResponseOf<C>>;

/**
 * A service stand-in on an in-process bus, for the gateway's tests: real envelopes and contracts,
 * every request and reply recorded, and hooks to hold a reply (concurrency) or fail the next call.
 */
export abstract class FakeService {
  readonly received: Envelope[] = [];
  readonly replies: Envelope[] = [];
  private readonly holds = new Map<string, Promise<void>>();
  private readonly failures = new Map<string, ErrorBody>();

  protected constructor(protected readonly bus: InProcessBus) {}

  /** Calls of one topic, in order. */
  calls<C extends CommandContract>(contract: C): Envelope<RequestOf<C>>[] {
    return this.received.filter((e): e is Envelope<RequestOf<C>> => e.type === contract.topic);
  }

  /** Replies to `topic` (computed at once) are delivered only once `release` resolves. */
  hold(contract: CommandContract, release: Promise<void>): void {
    this.holds.set(contract.topic, release);
  }

  failNext(contract: CommandContract, error: ErrorBody): void {
    this.failures.set(contract.topic, error);
  }

  protected on<C extends CommandContract>(contract: C, handler: FakeHandler<C>): void {
    this.bus.registerCommand(contract.topic, async (data) => {
      const envelope = envelopeSchema(contract.request).parse(data) as Envelope<RequestOf<C>>;
      this.received.push(envelope);
      const failure = this.failures.get(contract.topic);
      this.failures.delete(contract.topic);
      const result = failure ? { ok: false as const, error: failure } : handler(envelope.payload, envelope);
      // Answered now, delivered later: what a slow network does to a reply.
      await this.holds.get(contract.topic);
      const reply = createEnvelope(
        `${contract.topic}.reply`,
        contract.version,
        result,
        contextFrom(envelope),
      );
      this.replies.push(reply);
      return reply;
    });
  }
}
