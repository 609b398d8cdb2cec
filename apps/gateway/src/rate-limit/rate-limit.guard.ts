import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { DomainError } from '@cts/contracts';
import { type Response } from 'express';
import { type GatewayRequest } from '../http/request-context';

/**
 * Runs after the API key guard, which counted the request: `429 rate_limited` with `Retry-After`
 * past the key's budget.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const res = http.getResponse<Response>();
    const { rateLimit } = http.getRequest<GatewayRequest>();
    if (!rateLimit) {
      // Reaching this is a wiring bug: a route with the rate limit but without the API key guard.
      throw new Error('No rate-limit count on this request: the API key guard must run first');
    }
    const decision = await rateLimit;
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.resetSeconds));
      throw new DomainError(
        'rate_limited',
        `More than ${decision.limit} requests per minute with this API key; retry in ${decision.resetSeconds} s`,
      );
    }
    return true;
  }
}
