import { CliError, EXIT_FAILURE } from '../errors';
import { ApiError, ErrorResponse, NetworkError, TIMEOUT_SECONDS } from './api-errors';

export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** Starts with `/`; path parameters already encoded. */
  readonly path: string;
  readonly body?: unknown;
  /** Admin token or API key, sent as `Authorization: Bearer …`. */
  readonly bearer: string;
}

/** The one place the CLI talks HTTP: base URL, auth header, JSON in and out, error parsing. */
export class ApiClient {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly fetchFn: typeof fetch,
  ) {
    this.baseUrl = normaliseBaseUrl(baseUrl);
  }

  /** Resolves to the parsed JSON body of a 2xx answer; throws ApiError or NetworkError otherwise. */
  async send(request: ApiRequest): Promise<unknown> {
    // Concatenated, not new URL(path, base): a base with a path prefix (behind a proxy) must keep it.
    const url = `${this.baseUrl}${request.path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${request.bearer}`,
      accept: 'application/json',
    };
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(url, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(TIMEOUT_SECONDS * 1000),
      });
      text = await response.text();
    } catch (error) {
      throw new NetworkError(url, error);
    }
    const json = parseJson(text);
    if (!response.ok) {
      throw toApiError(response, json, text);
    }
    if (json === undefined) {
      throw new CliError(
        `unexpected response from ${url}: HTTP ${response.status} without a JSON body`,
        EXIT_FAILURE,
        'unexpected_response',
      );
    }
    return json;
  }
}

function normaliseBaseUrl(baseUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new CliError(
      `invalid --url ${JSON.stringify(baseUrl)}: expected something like http://localhost:8080`,
      EXIT_FAILURE,
      'invalid_usage',
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(
      `invalid --url ${JSON.stringify(baseUrl)}: only http and https are supported`,
      EXIT_FAILURE,
      'invalid_usage',
    );
  }
  return baseUrl.replace(/\/+$/, '');
}

function parseJson(text: string): unknown {
  if (text.trim() === '') {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toApiError(response: Response, json: unknown, text: string): ApiError {
  const parsed = ErrorResponse.safeParse(json);
  if (parsed.success) {
    const { code, message, request_id: requestId, param, reason } = parsed.data.error;
    return new ApiError({ status: response.status, code, message, requestId, param, reason });
  }
  // Not the gateway's error shape (a proxy page, a crash): still say what came back.
  const snippet = text.trim().slice(0, 200) || response.statusText || 'no body';
  return new ApiError({ status: response.status, code: `http_${response.status}`, message: snippet });
}
