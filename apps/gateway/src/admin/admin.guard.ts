import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@cts/contracts';
import { bearerToken, secretMatcher } from '@cts/platform';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings';
import { type GatewayRequest } from '../http/request-context';
import { AuthFailureThrottle } from '../rate-limit/auth-failure-throttle';
import { type Response } from 'express';

/** The admin API: `Authorization: Bearer <ADMIN_TOKEN>`, never an API key; anything else is `401`. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly matches: ((presented: string) => boolean) | undefined;

  constructor(
    @Inject(GATEWAY_SETTINGS) settings: GatewaySettings,
    private readonly failures: AuthFailureThrottle,
  ) {
    this.matches = settings.adminToken === undefined ? undefined : secretMatcher(settings.adminToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    const token = bearerToken(req.headers.authorization);
    if (!this.matches || token === undefined || !this.matches(token)) {
      const refused = new DomainError('unauthorized', 'Missing or invalid admin token');
      throw token === undefined
        ? refused
        : await this.failures.failed(req, context.switchToHttp().getResponse<Response>(), refused);
    }
    req.admin = true;
    return true;
  }
}
