import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@cts/contracts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '../auth/api-key-secret.domain';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings';
import { type GatewayRequest } from '../http/request-context';
import { AuthFailureThrottle } from '../rate-limit/auth-failure-throttle';
import { type Response } from 'express';

/** The admin API: `Authorization: Bearer <ADMIN_TOKEN>`, never an API key; anything else is `401`. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer | undefined;

  constructor(
    @Inject(GATEWAY_SETTINGS) settings: GatewaySettings,
    private readonly failures: AuthFailureThrottle,
  ) {
    this.expected = settings.adminToken === undefined ? undefined : digest(settings.adminToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    const token = bearerToken(req.headers.authorization);
    // Digests have equal lengths, so the comparison takes the same time whatever the token's length.
    if (!this.expected || token === undefined || !timingSafeEqual(digest(token), this.expected)) {
      const refused = new DomainError('unauthorized', 'Missing or invalid admin token');
      throw token === undefined
        ? refused
        : await this.failures.failed(req, context.switchToHttp().getResponse<Response>(), refused);
    }
    req.admin = true;
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
