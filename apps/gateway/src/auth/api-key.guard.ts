import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { DomainError, type Principal } from '@cts/contracts';
import { type Response } from 'express';
import { ApiKeyUsage } from '../api-keys/api-key-usage';
import { AuthFailureThrottle } from '../rate-limit/auth-failure-throttle';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { type GatewayRequest, requestIdOf } from '../http/request-context';
import { ApiKeyAuthenticator } from './api-key-authenticator';

/**
 * Every `/v1` route: a valid API key, or `401 unauthorized`. Counts the request for the key's usage,
 * and against its rate limit (which RateLimitGuard then enforces) while its cached principal is read:
 * one round trip to the shared cache, not two.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly usage: ApiKeyUsage,
    private readonly failures: AuthFailureThrottle,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    let principal: Principal;
    try {
      const key = this.authenticator.presented(req.headers.authorization);
      req.rateLimit = this.limiter.hit(key.hash);
      req.rateLimit.catch(() => undefined); // awaited by RateLimitGuard, unless authentication fails
      principal = await this.authenticator.authenticate(key, requestIdOf(req));
    } catch (error) {
      // Only a presented key that was refused counts against its address (not a missing one, not an
      // unavailable account-service).
      if (
        error instanceof DomainError &&
        error.code === 'unauthorized' &&
        req.headers.authorization !== undefined
      ) {
        throw await this.failures.failed(req, context.switchToHttp().getResponse<Response>(), error);
      }
      throw error;
    }
    req.principal = principal;
    this.usage.record(principal.key_id);
    return true;
  }
}
