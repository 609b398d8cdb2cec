import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { randomUUID } from 'node:crypto';
import { type Logger } from 'pino';
import { GATEWAY_LOGGER } from '../gateway.settings';
import { knownErrorResponse, unexpectedErrorResponse } from './error-response';
import { requestIdOf } from './request-context';

/**
 * The gateway's one exception filter: every error leaves in the same shape,
 * `{"error": {code, message, request_id, param?, reason?}}`. Anything it does not recognise is a
 * 500 with a generic message; the details go to the log under an error id the client can quote.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(@Inject(GATEWAY_LOGGER) private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const requestId = requestIdOf(req);
    let response = knownErrorResponse(error, requestId);
    if (!response) {
      const errorId = randomUUID();
      this.logger.error({ err: error, error_id: errorId, request_id: requestId }, 'unhandled error');
      response = unexpectedErrorResponse(requestId, errorId);
    }
    if (res.headersSent) {
      this.logger.warn(
        { request_id: requestId, code: response.body.error.code },
        'error after the response was sent',
      );
      return;
    }
    if (response.status === 503) {
      res.setHeader('Retry-After', '1');
    }
    res.status(response.status).json(response.body);
  }
}
