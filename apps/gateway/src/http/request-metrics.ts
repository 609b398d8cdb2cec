import { httpRequestDuration } from '@cts/platform';
import { type NextFunction, type Request, type Response } from 'express';

/** HTTP latency by route template (never the raw path: ids would make the label unbounded) and status. */
export function requestMetrics(req: Request, res: Response, next: NextFunction): void {
  const end = httpRequestDuration.startTimer({ method: req.method });
  res.on('finish', () => {
    const route = (req.route as { path?: string } | undefined)?.path;
    end({ route: route ? `${req.baseUrl}${route}` : 'unmatched', status: String(res.statusCode) });
  });
  next();
}
