import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { type DestinationGuard } from '../ssrf/destination-guard';
import { type AttemptOutcome, RESPONSE_BODY_LIMIT_BYTES, truncateResponseBody } from './attempt.domain';
import { classifyRequestFailure, type RequestFailure } from './network-error.domain';

export interface WebhookHttpClientOptions {
  timeoutMs: number;
  guard: DestinationGuard;
  /**
   * PEM certificates to trust beside Node's bundled roots (a test receiver's CA). In production
   * `NODE_EXTRA_CA_CERTS` does this; TLS verification itself is never turned off.
   */
  extraCa?: string | readonly string[];
}

const ERROR_TEXT_LIMIT = 500;
const RETRY_AFTER_LIMIT = 100;

function failureOf(error: unknown): RequestFailure {
  const err = error as { name?: string; code?: string; message?: string; cause?: unknown };
  const cause = err.cause as { code?: string } | undefined;
  return { name: err.name, code: err.code, causeCode: cause?.code, message: err.message ?? String(error) };
}

function describeFailure(failure: RequestFailure, timeoutMs: number): string {
  if (classifyRequestFailure(failure) === 'timeout') {
    return `timeout: no response within ${timeoutMs} ms`;
  }
  const code = failure.code ?? failure.causeCode;
  const message = failure.message ?? '';
  return (code ? `${code}: ${message}` : message).slice(0, ERROR_TEXT_LIMIT);
}

function headerText(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined ? null : text.slice(0, RETRY_AFTER_LIMIT);
}

/**
 * POSTs a delivery: connections go only to addresses the guard checked (its `lookup`), one new
 * connection per attempt (no keep-alive across deliveries, so DNS is checked every time), with
 * Node's certificate verification, no redirects followed, and at most 1 KB of the answer kept.
 */
export class WebhookHttpClient {
  private readonly agent: Agent;

  constructor(private readonly options: WebhookHttpClientOptions) {
    const extra = options.extraCa === undefined ? [] : [options.extraCa].flat();
    this.agent = new Agent({
      connect: {
        lookup: options.guard.lookup,
        timeout: options.timeoutMs,
        // A `ca` replaces the default store, so the bundled roots come along; built once, as parsing
        // the roots on every connection would stall the event loop.
        ...(extra.length > 0
          ? { secureContext: createSecureContext({ ca: [...rootCertificates, ...extra] }) }
          : {}),
      },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const allowed = this.options.guard.checkStatic(url);
    if (!allowed.ok) {
      return {
        statusCode: null,
        responseBody: null,
        retryAfter: null,
        errorCode: 'destination_refused',
        error: `refused: ${allowed.message}`,
        durationMs: 0,
      };
    }
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      // undici's `request` follows no redirect: a 3xx is an answer like any other non-2xx. `reset`
      // closes the connection afterwards, so every delivery resolves and checks the host again.
      const response = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal,
        reset: true,
      });
      const responseBody = await readLimited(response.body);
      return {
        statusCode: response.statusCode,
        responseBody,
        retryAfter: headerText(response.headers['retry-after']),
        errorCode: null,
        error: null,
        durationMs: elapsed(),
      };
    } catch (error) {
      const failure = failureOf(error);
      return {
        statusCode: null,
        responseBody: null,
        retryAfter: null,
        errorCode: classifyRequestFailure(failure),
        error: describeFailure(failure, this.options.timeoutMs),
        durationMs: elapsed(),
      };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** Reads at most the stored limit, then drops the rest; a failing body does not undo the status. */
async function readLimited(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BODY_LIMIT_BYTES) {
        break;
      }
    }
  } catch {
    // The status arrived in time; what the body did after it is not the receiver's answer.
  } finally {
    body.destroy();
  }
  return truncateResponseBody(Buffer.concat(chunks));
}
