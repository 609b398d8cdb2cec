import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type NextFunction } from 'express';
import { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { type GatewayRequest } from './request-context';

const UNLOGGED_PATHS = new Set(['/healthz', '/readyz']);
/** Query values worth a log line; any other parameter (a decryption proof…) is logged by name only. */
const LOGGED_QUERY_VALUES = new Set(['limit', 'offset', 'status', 'from', 'to', 'include']);

/**
 * One JSON line per request, under the request id, with the caller once authenticated. Headers are
 * not logged at all (Authorization, Idempotency-Key), and the runtime logger redacts secret fields.
 * Below info only failed requests would be written, so pino-http (a child logger and its redaction
 * per request: ~9 % of the gateway's CPU on a read) gives way to a listener that logs just those.
 */
export function requestLogging(logger: Logger) {
  return logger.isLevelEnabled('info') ? accessLog(logger) : failedRequestLog(logger);
}

const requestFields = (req: GatewayRequest) => ({
  id: req.requestId,
  method: req.method,
  path: req.path,
  query: safeQuery(req),
  user_agent: req.headers['user-agent'],
});

const callerFields = (req: GatewayRequest) =>
  req.principal
    ? {
        account_id: req.principal.account_id,
        key_id: req.principal.key_id,
        environment: req.principal.environment,
      }
    : {};

function accessLog(logger: Logger) {
  return pinoHttp<GatewayRequest, ServerResponse>({
    logger,
    genReqId: (req) => req.requestId ?? 'req_unknown',
    autoLogging: { ignore: (req) => UNLOGGED_PATHS.has(req.path) },
    wrapSerializers: false,
    serializers: {
      req: requestFields,
      res: (res: ServerResponse) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    // pino-http makes up an Error (with its own stack) for a 5xx; the filter has logged the real one.
    customErrorObject: (_req, res, _error, value: { responseTime?: number }) => ({
      res,
      responseTime: value.responseTime,
    }),
    customProps: callerFields,
  });
}

/** The same line as pino-http's for a 5xx, and nothing for any other request. */
function failedRequestLog(logger: Logger) {
  return (req: GatewayRequest, res: ServerResponse, next: NextFunction): void => {
    const started = performance.now();
    res.once('finish', () => {
      if (res.statusCode >= 500 && !UNLOGGED_PATHS.has(req.path)) {
        logger.error(
          {
            req: requestFields(req),
            res: { status: res.statusCode },
            responseTime: Math.round(performance.now() - started),
            ...callerFields(req),
          },
          'request errored',
        );
      }
    });
    next();
  };
}

function safeQuery(req: IncomingMessage): Record<string, string> | undefined {
  const url = new URL(req.url ?? '/', 'http://gateway');
  const entries = [...url.searchParams.keys()].map((name): [string, string] => [
    name,
    LOGGED_QUERY_VALUES.has(name) ? (url.searchParams.get(name) ?? '') : '[redacted]',
  ]);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
