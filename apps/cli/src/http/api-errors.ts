import { CtsApiError, CtsNetworkError } from '@cts/sdk';
import { z } from 'zod';
import {
  CliError,
  errorCause,
  errorMessage,
  errorName,
  type ErrorJson,
  EXIT_FAILURE,
  EXIT_UNREACHABLE,
} from '../errors';

/** The gateway's error shape: `{"error": {"code", "message", "request_id", "param"?, "reason"?}}`. */
export const ErrorResponse = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    request_id: z.string().optional(),
    param: z.string().optional(),
    reason: z.string().optional(),
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
  readonly reason?: string;
}

/** The API answered with a 4xx/5xx. */
/** Answers that say "later", not "no": exit 2 like an unreachable gateway, so scripts retry them. */
const RETRYABLE_STATUSES = new Set([429, 503]);

export class ApiError extends CliError {
  override readonly code: string;

  constructor(readonly details: ApiErrorDetails) {
    super(
      describeApiError(details),
      RETRYABLE_STATUSES.has(details.status) ? EXIT_UNREACHABLE : EXIT_FAILURE,
    );
    this.name = 'ApiError';
    this.code = details.code;
  }

  /** The API's error object as it came, not the one-line description. */
  override toJson(): ErrorJson {
    const { code, message, requestId, param, reason } = this.details;
    return { error: { code, message, request_id: requestId, param, reason } };
  }
}

/** No HTTP answer at all: refused, DNS, TLS, timeout. */
export class NetworkError extends CliError {
  constructor(url: string, cause: unknown) {
    super(
      `cannot reach ${url}: ${describeCause(cause)} — is the gateway running? (set --url or CTS_URL)`,
      EXIT_UNREACHABLE,
      'gateway_unreachable',
    );
    this.name = 'NetworkError';
  }
}

/** An error of the SDK (`cts listen`, `cts mcp`) as the CLI reports its own; `undefined` for others. */
export function fromSdkError(error: unknown): CliError | undefined {
  if (error instanceof CtsApiError) {
    const { status, code, message, requestId, param, reason } = error;
    return new ApiError({ status, code, message, requestId, param, reason });
  }
  if (error instanceof CtsNetworkError) {
    return new CliError(
      `${error.message} — is the gateway running? (set --url or CTS_URL)`,
      EXIT_UNREACHABLE,
      'gateway_unreachable',
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
