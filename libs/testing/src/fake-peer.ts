import {
  type CommandContract,
  type CommandEnvelope,
  commandEnvelopeSchema,
  contextFrom,
  createEnvelope,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { type InProcessBus } from '@cts/messaging';

export type FakeReply<C extends CommandContract> = Result<ResponseOf<C>>;
export type FakeResponder<C extends CommandContract> = (
  request: RequestOf<C>,
  envelope: CommandEnvelope<RequestOf<C>>,
) => FakeReply<C> | Promise<FakeReply<C>>;

/**
 * A fake peer's answer to `contract` on `bus`: the request is validated as the real consumer would,
 * recorded in `received` (its deadline kept), answered by `handler`, and the reply goes back in a real envelope.
 */
export function serveCommand<C extends CommandContract>(
  bus: InProcessBus,
  contract: C,
  received: CommandEnvelope<RequestOf<C>>[],
  handler: FakeResponder<C>,
): void {
  bus.registerCommand(contract.topic, async (data) => {
    const envelope = commandEnvelopeSchema(contract.request).parse(data) as CommandEnvelope<RequestOf<C>>;
    received.push(envelope);
    const result = await handler(envelope.payload, envelope);
    return createEnvelope(`${contract.topic}.reply`, contract.version, result, contextFrom(envelope));
  });
}
