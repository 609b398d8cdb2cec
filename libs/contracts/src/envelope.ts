import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { builtOnce } from './built-once';
import { Environment } from './environment';
import { currentTraceCarrier, TraceCarrier } from '@cts/platform';

const withTrace = (carrier: TraceCarrier | undefined) => (carrier ? { trace: carrier } : {});

/** The metadata every command, reply and event carries (ARCHITECTURE §3). */
export const EnvelopeMeta = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  version: z.number().int().positive(),
  occurred_at: z.iso.datetime({ offset: false }),
  correlation_id: z.string().min(1),
  causation_id: z.string().nullable(),
  environment: Environment.nullable(),
  account_id: z.string().nullable(),
  /** W3C trace context of the cause, when tracing is on (OTEL_* variables). */
  trace: TraceCarrier.optional(),
});

export type EnvelopeMeta = z.infer<typeof EnvelopeMeta>;
export type Envelope<P = unknown> = EnvelopeMeta & { payload: P };

const envelopeAround = builtOnce((payload) => EnvelopeMeta.extend({ payload }));

/** The envelope schema around a payload's, built once per payload schema. */
export function envelopeSchema<P extends z.ZodType>(payload: P) {
  return envelopeAround(payload) as unknown as ReturnType<typeof EnvelopeMeta.extend<{ payload: P }>>;
}

/**
 * A command's envelope adds `deadline_at`: when (epoch ms) its first sender stops waiting for the
 * answer. Every hop waits only for what is left of it, and a handler does not start a command whose
 * deadline has passed. Optional: a command sent before deadlines existed has none. Events and replies
 * never carry one.
 */
export const CommandEnvelopeMeta = EnvelopeMeta.extend({
  deadline_at: z.number().int().nonnegative().optional(),
});
export type CommandEnvelopeMeta = z.infer<typeof CommandEnvelopeMeta>;
export type CommandEnvelope<P = unknown> = CommandEnvelopeMeta & { payload: P };

const commandEnvelopeAround = builtOnce((payload) => CommandEnvelopeMeta.extend({ payload }));

/** The command envelope schema around a request's, built once per request schema. */
export function commandEnvelopeSchema<P extends z.ZodType>(payload: P) {
  return commandEnvelopeAround(payload) as unknown as ReturnType<
    typeof CommandEnvelopeMeta.extend<{ payload: P }>
  >;
}

/** Who caused a message and on whose behalf: carried from the HTTP request into every message. */
export interface MessageContext {
  correlationId: string;
  causationId?: string | null;
  environment: Environment | null;
  accountId: string | null;
  /**
   * The deadline (epoch ms) commands sent in this context inherit: set from the command being
   * handled. `null` asks for a fresh one (a compensation that must run even after the cause's
   * deadline passed); undefined inherits whatever deadline the current handler runs under.
   */
  deadlineAt?: number | null;
  /**
   * How long past the deadline the sender still takes the reply (ms): a gateway request with an
   * Idempotency-Key records a late answer for its retry. Never on the wire: the service's deadline is
   * unchanged.
   */
  lateReplyMs?: number;
}

export function createEnvelope<P>(
  type: string,
  version: number,
  payload: P,
  context: MessageContext,
): Envelope<P> {
  return {
    id: uuidv7(),
    type,
    version,
    occurred_at: new Date().toISOString(),
    correlation_id: context.correlationId,
    causation_id: context.causationId ?? null,
    environment: context.environment,
    account_id: context.accountId,
    ...withTrace(currentTraceCarrier()),
    payload,
  };
}

/**
 * The context of a message caused by another one: same correlation, causation = the cause's id, and
 * a command's deadline (commands it causes must answer within it).
 */
export function contextFrom(cause: EnvelopeMeta & { deadline_at?: number }): MessageContext {
  return {
    correlationId: cause.correlation_id,
    causationId: cause.id,
    environment: cause.environment,
    accountId: cause.account_id,
    ...(cause.deadline_at === undefined ? {} : { deadlineAt: cause.deadline_at }),
  };
}
