import { inSpan, SpanKind } from '@cts/platform';
import { type NextFunction, type Request, type Response } from 'express';

/**
 * One server span per request (when tracing is on); every command the request sends runs inside
 * it, so the trace continues through the envelope into the services and the ledger.
 */
export function requestTracing(req: Request, res: Response, next: NextFunction): void {
  void inSpan(
    `${req.method} ${req.path}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
    (span) =>
      new Promise<void>((resolve) => {
        res.on('finish', () => {
          const route = (req.route as { path?: string } | undefined)?.path;
          span.setAttribute('http.route', route ? `${req.baseUrl}${route}` : 'unmatched');
          span.setAttribute('http.response.status_code', res.statusCode);
          span.updateName(`${req.method} ${route ? `${req.baseUrl}${route}` : 'unmatched'}`);
          resolve();
        });
        res.on('close', () => resolve());
        next();
      }),
  );
}
