import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { DomainError } from '@cts/contracts';
import { type Request, type Response } from 'express';
import { principalOf } from '../http/request-context';
import { RateLimiter } from './rate-limiter';

/** Runs after the API key guard: `429 rate_limited` with `Retry-After` past the key's budget. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const res = http.getResponse<Response>();
    const decision = await this.limiter.hit(principalOf(http.getRequest<Request>()).key_id);
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
