import { apiErrorFromResponse, CtsApiError, CtsNetworkError } from './cts-api-error';
import { newIdempotencyKey } from './idempotency-key';
import { isRetryableStatus, parseRetryAfter, retryDelay } from './retry-policy';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** An array repeats the parameter once per item (`type=a&type=b`). */
export type QueryValue = string | number | boolean | Date | readonly string[] | undefined;

export interface TransportSettings {
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
  maxRetries: number;
  retryDelayMs: number;
  timeoutMs: number;
  maxRetryAfterMs: number;
}

export interface ApiRequest {
  method: HttpMethod;
  /** Path below the base URL, starting with `/v1/`; path parameters already encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Extra request headers (e.g. a secret that must not travel in the URL). */
  headers?: Record<string, string>;
  body?: unknown;
  idempotencyKey?: string;
  /**
   * For a DELETE: the 404 `code` that says the resource itself is gone (e.g. `webhook_not_found`).
   * When a retry gets it after an attempt that may have taken effect (no answer, 502-504), that
   * attempt deleted it: the call resolves as deleted (`204`, `replayed: true`) instead of throwing.
   * A 404 on the first attempt, or after a 429 (refused), still throws.
   */
  goneCode?: string;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  requestId: string | undefined;
  /** The `Idempotency-Key` sent (POST and PATCH), to retry the same operation later by hand. */
  idempotencyKey: string | undefined;
  /**
   * The gateway answered from its idempotency record (`Idempotent-Replayed: true`): an earlier request
   * with this key did the work, and `body` is that request's answer as it was then. Also set on a
   * DELETE whose retry found the resource gone (see `ApiRequest.goneCode`).
   */
  replayed: boolean;
}

// The gateway honours Idempotency-Key on POST and PATCH; GET and DELETE are safe to repeat as-is.
const KEYED_METHODS = new Set<HttpMethod>(['POST', 'PATCH']);

type Attempt =
  | { kind: 'answered'; status: number; headers: Headers; text: string }
  | { kind: 'unanswered'; cause: unknown; timedOut: boolean };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (Array.isArray(value)) {
      for (const item of value as readonly string[]) {
        params.append(name, item);
      }
    } else if (value !== undefined) {
      params.append(name, value instanceof Date ? value.toISOString() : String(value));
    }
  }
  const encoded = params.toString();
  return encoded === '' ? '' : `?${encoded}`;
}

function parseJson(text: string): unknown {
  if (text === '') {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sends one API operation, retrying network failures, 429 and 502-504. The Idempotency-Key is fixed
 * before the first attempt, so every retry of a create is the same operation to the server.
 */
export class HttpTransport {
  private readonly baseUrl: string;

  constructor(private readonly settings: TransportSettings) {
    this.baseUrl = settings.baseUrl.replace(/\/+$/, '');
  }

  async send<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    const idempotencyKey = KEYED_METHODS.has(request.method)
      ? (request.idempotencyKey ?? newIdempotencyKey())
      : undefined;
    const url = `${this.baseUrl}${request.path}${queryString(request.query)}`;
    const init = this.requestInit(request, idempotencyKey);
    // Whether an earlier attempt may have done the work: it got no answer, or a 502-504 (the
    // gateway may have acted before the answer was lost). A 429 is a refusal: nothing was done.
    let mayHaveTakenEffect = false;
    for (let attempt = 0; ; attempt += 1) {
      const outcome = await this.attempt(url, init);
      const mayRetry = attempt < this.settings.maxRetries;
      if (outcome.kind === 'unanswered') {
        if (!mayRetry) {
          // Method and path only: the query can hold a decryption proof, which names amounts.
          const what = outcome.timedOut ? 'timed out' : 'got no response';
          throw new CtsNetworkError(`${request.method} ${request.path} ${what}`, outcome);
        }
        mayHaveTakenEffect = true;
        await sleep(retryDelay(attempt, this.settings.retryDelayMs, undefined));
      } else {
        if (mayHaveTakenEffect && isGone(request, outcome)) {
          return deleted<T>(outcome, idempotencyKey);
        }
        const retryAfter = parseRetryAfter(outcome.headers.get('retry-after'), Date.now());
        // Never retry sooner than asked (that earns another 429), nor wait longer than the cap: throw.
        const waitable = retryAfter === undefined || retryAfter <= this.settings.maxRetryAfterMs;
        if (!(mayRetry && isRetryableStatus(outcome.status) && waitable)) {
          return { ...settle<T>(outcome, retryAfter), idempotencyKey };
        }
        mayHaveTakenEffect ||= outcome.status !== 429;
        await sleep(retryDelay(attempt, this.settings.retryDelayMs, retryAfter));
      }
    }
  }

  private requestInit(request: ApiRequest, idempotencyKey: string | undefined): RequestInit {
    const headers: Record<string, string> = {
      ...request.headers,
      Authorization: `Bearer ${this.settings.apiKey}`,
      Accept: 'application/json',
    };
    if (request.body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    if (idempotencyKey !== undefined) {
      headers['Idempotency-Key'] = idempotencyKey;
    }
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    return { method: request.method, headers, body };
  }

  private async attempt(url: string, init: RequestInit): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.settings.timeoutMs);
    try {
      const response = await this.settings.fetch(url, { ...init, signal: controller.signal });
      // The body is read under the same timeout: a server that stalls mid-body is as dead as a silent one.
      const text = await response.text();
      return { kind: 'answered', status: response.status, headers: response.headers, text };
    } catch (cause) {
      return { kind: 'unanswered', cause, timedOut: controller.signal.aborted };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A 404 that names the very resource a DELETE removes (not the route, not a parent). */
function isGone(request: ApiRequest, outcome: { status: number; text: string }): boolean {
  if (request.method !== 'DELETE' || request.goneCode === undefined || outcome.status !== 404) {
    return false;
  }
  return apiErrorFromResponse(404, parseJson(outcome.text), null).code === request.goneCode;
}

/** What the attempt that did the work would have answered: `204`, no body. */
function deleted<T>(outcome: { headers: Headers }, idempotencyKey: string | undefined): ApiResponse<T> {
  return {
    status: 204,
    body: undefined as T,
    requestId: outcome.headers.get('x-request-id') ?? undefined,
    idempotencyKey,
    replayed: true,
  };
}

function settle<T>(
  outcome: { status: number; headers: Headers; text: string },
  retryAfterMs: number | undefined,
): Omit<ApiResponse<T>, 'idempotencyKey'> {
  const headerRequestId = outcome.headers.get('x-request-id');
  const body = parseJson(outcome.text);
  if (outcome.status < 200 || outcome.status > 299) {
    throw apiErrorFromResponse(outcome.status, body, headerRequestId, retryAfterMs);
  }
  if (body === undefined && outcome.text !== '') {
    throw new CtsApiError({
      status: outcome.status,
      code: 'invalid_response',
      message: `The API answered HTTP ${outcome.status} with a body that is not JSON`,
      requestId: headerRequestId ?? undefined,
    });
  }
  return {
    status: outcome.status,
    body: body as T,
    requestId: headerRequestId ?? undefined,
    replayed: outcome.headers.get('idempotent-replayed') === 'true',
  };
}
