import {
  type CommandContract,
  contextFrom,
  createEnvelope,
  type Envelope,
  envelopeSchema,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { type InProcessBus } from '@cts/messaging';

export type FakeReply<C extends CommandContract> = Result<ResponseOf<C>>;
export type FakeResponder<C extends CommandContract> = (
  request: RequestOf<C>,
  envelope: Envelope<RequestOf<C>>,
) => FakeReply<C> | Promise<FakeReply<C>>;

/**
 * A fake peer's answer to `contract` on `bus`: the request is validated as the real consumer would,
 * recorded in `received`, answered by `handler`, and the reply goes back in a real envelope.
 */
export function serveCommand<C extends CommandContract>(
  bus: InProcessBus,
  contract: C,
  received: Envelope<RequestOf<C>>[],
  handler: FakeResponder<C>,
): void {
  bus.registerCommand(contract.topic, async (data) => {
    const envelope = envelopeSchema(contract.request).parse(data) as Envelope<RequestOf<C>>;
    received.push(envelope);
    const result = await handler(envelope.payload, envelope);
    return createEnvelope(`${contract.topic}.reply`, contract.version, result, contextFrom(envelope));
  });
}
