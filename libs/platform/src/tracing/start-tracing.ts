import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

let provider: NodeTracerProvider | null = null;

/** Tracing is off unless the standard OTEL_* variables name an OTLP endpoint (or exporter). */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  const exporter = env.OTEL_TRACES_EXPORTER;
  if (exporter === 'none' || env.OTEL_SDK_DISABLED === 'true') {
    return false;
  }
  return (
    exporter === 'otlp' || Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
  );
}

/**
 * Registers an OTLP/HTTP trace exporter configured by the standard variables
 * (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, OTEL_BSP_*, OTEL_SERVICE_NAME…), once per
 * process. Spans cover HTTP → command → handler → ledger; the context crosses Kafka in the envelope.
 */
export function startTracing(serviceName: string): void {
  if (provider || !tracingRequested()) {
    return;
  }
  process.env.OTEL_SERVICE_NAME ??= serviceName;
  provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  provider.register();
}

/** Sends what is buffered; called when the process stops. */
export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
  provider = null;
}
