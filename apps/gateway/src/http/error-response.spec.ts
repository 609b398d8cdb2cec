import {
  BadRequestException,
  HttpException,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import { DomainError, ERROR_CODES } from '@cts/contracts';
import { CacheUnavailableError } from '@cts/platform';
import { knownErrorResponse, unexpectedErrorResponse } from './error-response';
import { ERROR_STATUS } from './error-status';

describe('error mapping', () => {
  it.each([
    ['invalid_request', 400],
    ['invalid_policy', 400],
    ['unauthorized', 401],
    ['insufficient_balance', 402],
    ['kyc_required', 403],
    ['forbidden', 403],
    ['not_agent_owner', 403],
    ['policy_violation', 403],
    ['test_mode_only', 403],
    ['account_not_found', 404],
    ['api_key_not_found', 404],
    ['recipient_not_found', 404],
    ['transaction_not_found', 404],
    ['method_not_allowed', 405],
    ['handle_taken', 409],
    ['domain_taken', 409],
    ['transaction_expired', 409],
    ['transaction_already_decided', 409],
    ['idempotency_key_in_use', 409],
    ['idempotency_key_reused', 422],
    ['recipient_not_confidential_ready', 422],
    ['decryption_proof_invalid', 422],
    ['rate_limited', 429],
    ['internal_error', 500],
    ['service_unavailable', 503],
  ] as const)('maps %s to %i', (code, status) => {
    expect(ERROR_STATUS[code]).toBe(status);
  });

  it('gives every *_not_found code a 404', () => {
    for (const code of ERROR_CODES.filter((c) => c.endsWith('_not_found'))) {
      expect(ERROR_STATUS[code]).toBe(404);
    }
  });

  it('keeps param and reason of a domain error and adds the request id', () => {
    const error = new DomainError('policy_violation', 'Above the daily limit', {
      reason: 'daily_limit_exceeded',
      param: 'amount',
    });

    expect(knownErrorResponse(error, 'req_1')).toEqual({
      status: 403,
      body: {
        error: {
          code: 'policy_violation',
          message: 'Above the daily limit',
          reason: 'daily_limit_exceeded',
          param: 'amount',
          request_id: 'req_1',
        },
      },
    });
  });

  it('hides a rejected internal message behind internal_error', () => {
    const response = knownErrorResponse(
      new DomainError('invalid_message', 'The account.get message failed validation'),
      'req_1',
    );

    expect(response?.status).toBe(500);
    expect(response?.body.error.code).toBe('internal_error');
  });

  it('maps an unknown route to 404 not_found without its query string', () => {
    const response = knownErrorResponse(new NotFoundException('Cannot GET /v1/nope?secret=1'), 'req_1');

    expect(response).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No endpoint GET /v1/nope', request_id: 'req_1' } },
    });
  });

  it('maps an unparsable body to 400 invalid_request', () => {
    const parseError = new BadRequestException('Unexpected token', {
      cause: new SyntaxError('Unexpected token'),
    });

    expect(knownErrorResponse(parseError, 'req_1')?.body.error).toMatchObject({
      code: 'invalid_request',
      message: 'The request body is not valid JSON',
    });
  });

  it('keeps the status of other client errors of the framework', () => {
    expect(
      knownErrorResponse(new PayloadTooLargeException('request entity too large'), 'req_1'),
    ).toMatchObject({
      status: 413,
      body: { error: { code: 'invalid_request' } },
    });
  });

  it('answers an unreachable cache (Redis down) with 503 service_unavailable, not a 500', () => {
    expect(knownErrorResponse(new CacheUnavailableError(new Error('ECONNREFUSED')), 'req_1')).toEqual({
      status: 503,
      body: {
        error: {
          code: 'service_unavailable',
          message: 'A dependency of the service is unavailable; retry with the same Idempotency-Key',
          request_id: 'req_1',
        },
      },
    });
  });

  it('does not recognise server errors or plain exceptions', () => {
    expect(knownErrorResponse(new HttpException('boom', 502), 'req_1')).toBeUndefined();
    expect(knownErrorResponse(new TypeError('x is undefined'), 'req_1')).toBeUndefined();
  });

  it('answers an unexpected error generically, with an id to find it in the logs', () => {
    expect(unexpectedErrorResponse('req_1', 'e-1')).toEqual({
      status: 500,
      body: {
        error: {
          code: 'internal_error',
          message: 'An internal error occurred (error id e-1)',
          request_id: 'req_1',
        },
      },
    });
  });
});
