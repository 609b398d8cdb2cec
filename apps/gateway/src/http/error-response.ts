import { DomainError, type ErrorBody, type ErrorCode } from '@cts/contracts';
import { HttpException } from '@nestjs/common';
import { CacheUnavailableError } from '@cts/platform';
import { ERROR_STATUS } from './error-status';

export interface ErrorResponse {
  status: number;
  body: { error: ErrorBody & { request_id: string } };
}

/** The response for an error the gateway understands; `undefined` for anything unexpected. */
export function knownErrorResponse(error: unknown, requestId: string): ErrorResponse | undefined {
  const described = describe(error);
  if (!described) {
    return undefined;
  }
  const { status, body } = described;
  // A service rejecting the gateway's own message is the gateway's bug, not the client's concern.
  const code = body.code === 'invalid_message' ? 'internal_error' : body.code;
  return { status, body: { error: { ...body, code, request_id: requestId } } };
}

export function unexpectedErrorResponse(requestId: string, errorId: string): ErrorResponse {
  return {
    status: 500,
    body: {
      error: {
        code: 'internal_error',
        message: `An internal error occurred (error id ${errorId})`,
        request_id: requestId,
      },
    },
  };
}

function describe(error: unknown): { status: number; body: ErrorBody } | undefined {
  if (error instanceof DomainError) {
    return { status: ERROR_STATUS[error.code], body: error.toBody() };
  }
  if (error instanceof HttpException) {
    return fromHttpException(error);
  }
  if (error instanceof CacheUnavailableError) {
    // Keys, rate limits and idempotency records live there: nothing can be answered safely without it.
    return {
      status: 503,
      body: {
        code: 'service_unavailable',
        message: 'A dependency of the service is unavailable; retry with the same Idempotency-Key',
      },
    };
  }
  return undefined;
}

/** Errors raised by the framework itself: unknown routes, unparsable or oversized bodies. */
function fromHttpException(error: HttpException): { status: number; body: ErrorBody } | undefined {
  const status = error.getStatus();
  if (status >= 500) {
    return undefined;
  }
  if (status === 404) {
    return { status, body: { code: 'not_found', message: notFoundMessage(error) } };
  }
  if (error.cause instanceof SyntaxError) {
    return { status: 400, body: { code: 'invalid_request', message: 'The request body is not valid JSON' } };
  }
  return { status, body: { code: codeForStatus(status), message: error.message } };
}

function notFoundMessage(error: HttpException): string {
  const route = /^Cannot (\S+) (.+)$/.exec(error.message);
  return route ? `No endpoint ${route[1]} ${route[2].split('?')[0]}` : error.message;
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 429:
      return 'rate_limited';
    default:
      return 'invalid_request';
  }
}
