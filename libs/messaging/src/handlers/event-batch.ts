import { SetMetadata } from '@nestjs/common';
import { type Envelope, EnvelopeMeta, envelopeSchema, type EventContract } from '@cts/contracts';
import { inSpans, SpanKind, handledMessages } from '@cts/platform';
import { type DeadLetters } from './dead-letters';

export const EVENT_BATCH_HANDLER = Symbol('cts:event-batch-handler');

/**
 * Marks a method as the handler of batches of these event types (all of one topic): it receives
 * the validated envelopes of a run of consecutive messages of one partition, in order, and must
 * store their effects atomically and idempotently (its inbox), as the transport acknowledges the
 * whole run once it resolves and redelivers the whole run if it throws.
 */
export const OnEventBatch = (...contracts: EventContract[]) => SetMetadata(EVENT_BATCH_HANDLER, contracts);

/** What a transport server that consumes in batches looks for on a handler (Nest's handler `extras`). */
export const BATCH_HANDLER_EXTRAS = { batch: true } as const;

export const isBatchHandler = (handler: { extras?: Record<string, unknown> }): boolean =>
  handler.extras?.batch === true;

/**
 * What a handler takes: an event type in one version. A new version is published beside the old
 * one (docs/events.md), so a consumer reads the version it knows and skips the others.
 */
export const versionedType = ({ type, version }: { type: string; version: number }): string =>
  `${type}@${version}`;

export interface FoundBatchHandler {
  contracts: EventContract[];
  method: (envelopes: Envelope[]) => Promise<unknown>;
}

/**
 * The batch handler of one topic for a transport: every message is validated against its contract
 * first (one that fails goes to the dead-letter topic with the reason, as a single message would);
 * event types of the family that no handler takes are skipped; the valid envelopes go to their
 * handler in publication order, one call per handler.
 */
export function eventBatchDispatcher(
  topic: string,
  handlers: FoundBatchHandler[],
  consumer: string,
  deadLetters: DeadLetters,
): (messages: unknown[]) => Promise<void> {
  const schemas = new Map(
    handlers.flatMap((handler) =>
      handler.contracts.map(
        (contract) =>
          [versionedType(contract), { handler, schema: envelopeSchema(contract.payload) }] as const,
      ),
    ),
  );
  return async (messages) => {
    const byHandler = new Map<FoundBatchHandler, Envelope[]>();
    for (const data of messages) {
      const meta = EnvelopeMeta.safeParse(data);
      if (!meta.success) {
        await deadLetters.send(topic, consumer, data, meta.error.message);
        continue;
      }
      const found = schemas.get(versionedType(meta.data));
      if (!found) {
        continue; // Another event type of the family, or a version of it this service does not read.
      }
      const parsed = found.schema.safeParse(data);
      if (!parsed.success) {
        await deadLetters.send(topic, consumer, data, parsed.error.message);
        continue;
      }
      const envelopes = byHandler.get(found.handler) ?? [];
      envelopes.push(parsed.data);
      byHandler.set(found.handler, envelopes);
    }
    for (const [handler, envelopes] of byHandler) {
      // A failure propagates: the transport redelivers the batch, and the handler's inbox makes that safe.
      await inSpans(
        envelopes.map((envelope) => ({ name: `${consumer} ${envelope.type}`, carrier: envelope.trace })),
        SpanKind.CONSUMER,
        () => handler.method(envelopes),
      );
      for (const envelope of envelopes) {
        handledMessages.inc({ service: consumer, type: envelope.type });
      }
    }
  };
}
