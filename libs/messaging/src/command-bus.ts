import { Inject, Injectable, Logger } from '@nestjs/common';
import { type ClientProxy } from '@nestjs/microservices';
import {
  type CommandContract,
  commandTopicOf,
  createEnvelope,
  envelopeSchema,
  fail,
  inSpan,
  type MessageContext,
  type RequestOf,
  type ResponseOf,
  type Result,
  resultSchema,
  SpanKind,
} from '@cts/contracts';
import { firstValueFrom, timeout } from 'rxjs';
import { z } from 'zod';
import { commandRoundTrip } from './metrics/metrics';

export const COMMAND_CLIENT = Symbol('COMMAND_CLIENT');

/** Any Nest client proxy (Kafka or in-process): only its request/reply side is used. */
export type CommandClient = Pick<ClientProxy, 'send'>;
export const COMMAND_TIMEOUT_MS = Symbol('COMMAND_TIMEOUT_MS');

/**
 * Sends a command and waits for its reply, over whichever transport the client proxy is. The
 * command goes on its service's command topic, its type in the envelope. The request is validated
 * before it leaves and the reply when it arrives (STYLE.md rule 4).
 */
@Injectable()
export class CommandBus {
  private readonly logger = new Logger(CommandBus.name);

  constructor(
    @Inject(COMMAND_CLIENT) private readonly client: CommandClient,
    @Inject(COMMAND_TIMEOUT_MS) private readonly timeoutMs: number,
  ) {}

  async send<C extends CommandContract>(
    contract: C,
    payload: z.input<C['request']>,
    context: MessageContext,
  ): Promise<Result<ResponseOf<C>>> {
    const request = contract.request.parse(payload) as RequestOf<C>;
    return inSpan(`send ${contract.topic}`, { kind: SpanKind.CLIENT }, () =>
      this.roundTrip(contract, request, context),
    );
  }

  private async roundTrip<C extends CommandContract>(
    contract: C,
    request: RequestOf<C>,
    context: MessageContext,
  ): Promise<Result<ResponseOf<C>>> {
    const envelope = createEnvelope(contract.topic, contract.version, request, context);
    const timer = commandRoundTrip.startTimer({ topic: contract.topic });
    let raw: unknown;
    try {
      raw = await firstValueFrom(
        this.client.send(commandTopicOf(contract.topic), envelope).pipe(timeout(this.timeoutMs)),
      );
    } catch (error) {
      timer({ outcome: 'timeout' });
      this.logger.error(
        `${contract.topic} got no reply: ${error instanceof Error ? error.message : String(error)}`,
      );
      return fail(
        'service_unavailable',
        'The service did not answer in time; retry with the same Idempotency-Key',
      );
    }
    const reply = envelopeSchema(resultSchema(contract.response)).safeParse(raw);
    if (!reply.success) {
      timer({ outcome: 'invalid_reply' });
      this.logger.error(`${contract.topic} replied with an invalid message: ${reply.error.message}`);
      return fail('internal_error', 'The service replied with an invalid message');
    }
    const result = reply.data.payload as Result<ResponseOf<C>>;
    timer({ outcome: result.ok ? 'ok' : result.error.code });
    return result;
  }
}
