import { type NextFunction, type Request, type Response } from 'express';

/** Baseline headers on every API response (the dashboard adds its own CSP on top). */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  next();
}
