import { newId } from '@cts/contracts';
import { type NextFunction, type Request, type Response } from 'express';
import { type GatewayRequest } from './request-context';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * First middleware of every request: a fresh id (never the client's, so log lines cannot be forged
 * under another request's id), echoed on every response, errors and 404s included.
 */
export function assignRequestId(req: Request, res: Response, next: NextFunction): void {
  const requestId = newId('req');
  (req as GatewayRequest).requestId = requestId;
  res.setHeader(REQUEST_ID_HEADER, requestId);
  next();
}
