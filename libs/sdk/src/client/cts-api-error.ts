/** A non-2xx answer from the API, with the fields of its error body (ARCHITECTURE §6). */
export class CtsApiError extends Error {
  override readonly name = 'CtsApiError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly param: string | undefined;
  readonly reason: string | undefined;
  /** The answer's `Retry-After` in milliseconds, when it had one (e.g. a 429 that asked to wait too long to retry). */
  readonly retryAfterMs: number | undefined;

  constructor(fields: {
    status: number;
    code: string;
    message: string;
    requestId?: string;
    param?: string;
    reason?: string;
    retryAfterMs?: number;
  }) {
    super(fields.message);
    this.status = fields.status;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.param = fields.param;
    this.reason = fields.reason;
    this.retryAfterMs = fields.retryAfterMs;
  }
}

/** No HTTP answer at all (connection refused or reset, DNS, timeout), after every retry. */
export class CtsNetworkError extends Error {
  override readonly name = 'CtsNetworkError';
  readonly timedOut: boolean;

  constructor(message: string, options: { cause: unknown; timedOut: boolean }) {
    super(message, { cause: options.cause });
    this.timedOut = options.timedOut;
  }
}

function stringField(source: Record<string, unknown>, field: string): string | undefined {
  const value = source[field];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Builds the error from whatever came back: a proxy or load balancer may answer with HTML or
 * nothing, so every field has a fallback rather than a throw.
 */
export function apiErrorFromResponse(
  status: number,
  body: unknown,
  headerRequestId: string | null,
  retryAfterMs?: number,
): CtsApiError {
  const error =
    body !== null &&
    typeof body === 'object' &&
    'error' in body &&
    body.error !== null &&
    typeof body.error === 'object'
      ? (body.error as Record<string, unknown>)
      : {};
  return new CtsApiError({
    status,
    code: stringField(error, 'code') ?? `http_${status}`,
    message: stringField(error, 'message') ?? `The API answered HTTP ${status}`,
    requestId: stringField(error, 'request_id') ?? headerRequestId ?? undefined,
    param: stringField(error, 'param'),
    reason: stringField(error, 'reason'),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}
