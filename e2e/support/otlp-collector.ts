import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  service: string;
  /** When the span started, in ms since the epoch (the exporting process's clock). */
  startMs: number;
}

interface OtlpJson {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        startTimeUnixNano: string | number;
      }[];
    }[];
  }[];
}

/** A stand-in OpenTelemetry collector: accepts OTLP/HTTP JSON on /v1/traces and keeps the spans. */
export class OtlpCollector {
  readonly spans: CollectedSpan[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          this.collect(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as OtlpJson);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private collect(body: OtlpJson): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service =
        resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId,
            name: span.name,
            service,
            startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
          });
        }
      }
    }
  }
}
