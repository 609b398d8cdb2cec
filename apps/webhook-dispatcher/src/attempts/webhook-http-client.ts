import { createSecureContext, rootCertificates } from 'node:tls';
import { type WebhookAttemptError } from '@cts/contracts';
import { request } from 'undici';
import { type DestinationGuard } from '../ssrf/destination-guard';
import { PinnedPools } from '../ssrf/pinned-pools';
import { type AttemptOutcome, RESPONSE_BODY_LIMIT_BYTES, truncateResponseBody } from './attempt.domain';
import { BLOCKED_CODE, classifyRequestFailure, type RequestFailure } from './network-error.domain';

const DEFAULT_CONNECTIONS_PER_ENDPOINT = 2;

export interface WebhookHttpClientOptions {
  timeoutMs: number;
  guard: DestinationGuard;
  /** Open connections per endpoint (URL origin); the dispatcher passes its in-flight limit. */
  connectionsPerEndpoint?: number;
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

const noAnswer = (errorCode: WebhookAttemptError, error: string, durationMs: number): AttemptOutcome => ({
  statusCode: null,
  responseBody: null,
  retryAfter: null,
  errorCode,
  error,
  durationMs,
});

/**
 * POSTs a delivery. Every delivery resolves the host and checks every address against the SSRF
 * rules, then goes over a kept-alive connection of the endpoint's pool only if that pool is pinned
 * to one of the addresses just checked (PinnedPools); otherwise over a new connection to a checked
 * address. Node's certificate verification, no redirects followed, at most 1 KB of the answer kept.
 */
export class WebhookHttpClient {
  private readonly pools: PinnedPools;

  constructor(private readonly options: WebhookHttpClientOptions) {
    const extra = options.extraCa === undefined ? [] : [options.extraCa].flat();
    this.pools = new PinnedPools({
      connectionsPerEndpoint: options.connectionsPerEndpoint ?? DEFAULT_CONNECTIONS_PER_ENDPOINT,
      connectTimeoutMs: options.timeoutMs,
      headersTimeoutMs: options.timeoutMs,
      bodyTimeoutMs: options.timeoutMs,
      // A `ca` replaces the default store, so the bundled roots come along; built once, as parsing
      // the roots on every connection would stall the event loop.
      ...(extra.length > 0
        ? { tls: { secureContext: createSecureContext({ ca: [...rootCertificates, ...extra] }) } }
        : {}),
    });
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const allowed = this.options.guard.checkStatic(url);
    if (!allowed.ok) {
      return noAnswer('destination_refused', `refused: ${allowed.message}`, 0);
    }
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const resolved = await this.options.guard.resolveForDelivery(allowed.target);
    if (!resolved.ok) {
      return resolved.unresolved
        ? noAnswer('dns_error', `ENOTFOUND: ${resolved.message}`, elapsed())
        : noAnswer('destination_refused', `${BLOCKED_CODE}: ${resolved.message}`, elapsed());
    }
    try {
      // Taken and used in the same tick: a delivery resolving the host differently may close it next.
      const pool = this.pools.poolFor(allowed.target.url.origin, resolved.addresses);
      // `request` follows no redirect: a 3xx is an answer like any other non-2xx.
      const response = await request(url, { method: 'POST', headers, body, dispatcher: pool, signal });
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
      return noAnswer(
        classifyRequestFailure(failure),
        describeFailure(failure, this.options.timeoutMs),
        elapsed(),
      );
    }
  }

  async close(): Promise<void> {
    await this.pools.close();
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
