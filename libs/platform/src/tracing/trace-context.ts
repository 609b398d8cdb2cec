import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { z } from 'zod';

/** W3C trace context (`traceparent`, `tracestate`) carried in the envelope across every hop. */
export const TraceCarrier = z.record(z.string(), z.string());
export type TraceCarrier = z.infer<typeof TraceCarrier>;

export const tracer = trace.getTracer('cts');

/** The active trace context as a carrier; undefined when nothing is traced (tracing off). */
export function currentTraceCarrier(): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

function contextOf(carrier: TraceCarrier | undefined): Context {
  return carrier ? propagation.extract(ROOT_CONTEXT, carrier) : context.active();
}

/**
 * Runs `work` in a span, child of `carrier`'s context when given (a message from another process)
 * or of the active one. A no-op wrapper while no tracer provider is registered (the default).
 */
export function inSpan<T>(
  name: string,
  options: {
    kind?: SpanKind;
    carrier?: TraceCarrier;
    attributes?: Record<string, string | number | boolean>;
  },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return context.with(contextOf(options.carrier), () =>
    tracer.startActiveSpan(
      name,
      { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
      async (span) => {
        try {
          return await work(span);
        } catch (error) {
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: error instanceof Error ? error.message : String(error),
          });
          throw error;
        } finally {
          span.end();
        }
      },
    ),
  );
}

/**
 * Runs `work` once for several messages handled together (a batch): a span per message, each in
 * its own message's trace (`carrier`), all spanning the one piece of work, so every request's
 * trace still shows the step that handled its message.
 */
export async function inSpans<T>(
  spans: { name: string; carrier?: TraceCarrier }[],
  kind: SpanKind,
  work: () => Promise<T>,
): Promise<T> {
  const started = spans.map(({ name, carrier }) =>
    tracer.startSpan(
      name,
      { kind, attributes: { 'messaging.batch.message_count': spans.length } },
      contextOf(carrier),
    ),
  );
  try {
    return await work();
  } catch (error) {
    for (const span of started) {
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
    }
    throw error;
  } finally {
    for (const span of started) {
      span.end();
    }
  }
}

export { SpanKind };
