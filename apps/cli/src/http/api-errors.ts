import { CtsApiError, CtsNetworkError } from '@cts/sdk';
import { z } from 'zod';
import { CliError, errorCause, errorMessage, errorName, EXIT_FAILURE, EXIT_UNREACHABLE } from '../errors';

/** The gateway's error shape: `{"error": {"code", "message", "request_id", "param"?}}`. */
export const ErrorResponse = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    request_id: z.string().optional(),
    param: z.string().optional(),
  }),
});

/** How long one request may take before the CLI gives up (exit 2, like no answer at all). */
export const TIMEOUT_SECONDS = 30;

export interface ApiErrorDetails {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly requestId?: string;
  readonly param?: string;
}

/** The API answered with a 4xx/5xx. */
/** Answers that say "later", not "no": exit 2 like an unreachable gateway, so scripts retry them. */
const RETRYABLE_STATUSES = new Set([429, 503]);

export class ApiError extends CliError {
  constructor(readonly details: ApiErrorDetails) {
    super(
      describeApiError(details),
      RETRYABLE_STATUSES.has(details.status) ? EXIT_UNREACHABLE : EXIT_FAILURE,
    );
    this.name = 'ApiError';
  }
}

/** No HTTP answer at all: refused, DNS, TLS, timeout. */
export class NetworkError extends CliError {
  constructor(url: string, cause: unknown) {
    super(
      `cannot reach ${url}: ${describeCause(cause)} — is the gateway running? (set --url or CTS_URL)`,
      EXIT_UNREACHABLE,
    );
    this.name = 'NetworkError';
  }
}

/** An error of the SDK (`cts listen`, `cts mcp`) as the CLI reports its own; `undefined` for others. */
export function fromSdkError(error: unknown): CliError | undefined {
  if (error instanceof CtsApiError) {
    const { status, code, message, requestId, param } = error;
    return new ApiError({ status, code, message, requestId, param });
  }
  if (error instanceof CtsNetworkError) {
    return new CliError(
      `${error.message} — is the gateway running? (set --url or CTS_URL)`,
      EXIT_UNREACHABLE,
    );
  }
  return undefined;
}

function describeApiError(details: ApiErrorDetails): string {
  const extras = [
    details.param === undefined ? undefined : `param: ${details.param}`,
    details.requestId === undefined ? undefined : `request_id: ${details.requestId}`,
  ].filter((part) => part !== undefined);
  const suffix = extras.length > 0 ? ` (${extras.join(', ')})` : '';
  return `${details.code}: ${details.message}${suffix}`;
}

function describeCause(error: unknown): string {
  if (errorName(error) === 'TimeoutError') {
    return `no answer within ${TIMEOUT_SECONDS} s`;
  }
  // fetch wraps the system error (ECONNREFUSED, ENOTFOUND…) in `cause`: that is the useful part.
  const inner = errorCause(error);
  return errorMessage(inner === undefined ? error : inner);
}
