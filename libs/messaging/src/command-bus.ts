import { Inject, Injectable, Logger } from '@nestjs/common';
import { type ClientProxy } from '@nestjs/microservices';
import {
  type CommandContract,
  type CommandEnvelope,
  commandTopicOf,
  createEnvelope,
  envelopeSchema,
  fail,
  type MessageContext,
  type RequestOf,
  type ResponseOf,
  type Result,
  resultSchema,
} from '@cts/contracts';
import { inSpan, SpanKind, commandRoundTrip } from '@cts/platform';
import { firstValueFrom, timeout } from 'rxjs';
import { z } from 'zod';
import {
  commandDeadline,
  deadlineExceeded,
  inheritedDeadline,
  remainingMs,
} from './deadline/command-deadline';

export const COMMAND_CLIENT = Symbol('COMMAND_CLIENT');

/** Any Nest client proxy (Kafka or in-process): only its request/reply side is used. */
export type CommandClient = Pick<ClientProxy, 'send'>;
export const COMMAND_TIMEOUT_MS = Symbol('COMMAND_TIMEOUT_MS');

/**
 * Sends a command and waits for its reply, over whichever transport the client proxy is. The
 * command goes on its service's command topic, its type in the envelope. The request is validated
 * before it leaves and the reply when it arrives (STYLE.md rule 4). The envelope carries the
 * command's deadline (`deadline_at`): the sender's timeout for a first command, what is left of the
 * handled command's for one sent by a handler; the bus waits until then (and `lateReplyMs` more when
 * the context asks, for a caller that records a late answer), and does not send a command whose
 * deadline has already passed.
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
    const now = Date.now();
    const deadlineAt = commandDeadline(now, this.timeoutMs, inheritedDeadline(context));
    const waitMs = remainingMs(deadlineAt, now);
    const timer = commandRoundTrip.startTimer({ topic: contract.topic });
    if (waitMs <= 0) {
      timer({ outcome: 'deadline_exceeded' });
      this.logger.warn(`${contract.topic} not sent: the deadline it inherits has passed`);
      return deadlineExceeded(contract.topic, 'before it could be sent');
    }
    const envelope: CommandEnvelope<RequestOf<C>> = {
      ...createEnvelope(contract.topic, contract.version, request, context),
      deadline_at: deadlineAt,
    };
    let raw: unknown;
    try {
      raw = await firstValueFrom(
        this.client
          .send(commandTopicOf(contract.topic), envelope)
          .pipe(timeout(waitMs + (context.lateReplyMs ?? 0))),
      );
    } catch (error) {
      timer({ outcome: 'timeout' });
      this.logger.error(
        `${contract.topic} got no reply: ${error instanceof Error ? error.message : String(error)}`,
      );
      return fail(
        'service_unavailable',
        'The service did not answer in time; retry with the same Idempotency-Key',
        { reason: 'deadline_exceeded' },
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
