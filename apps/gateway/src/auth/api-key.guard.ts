import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ApiKeyUsage } from '../api-keys/api-key-usage';
import { type GatewayRequest, requestIdOf } from '../http/request-context';
import { ApiKeyAuthenticator } from './api-key-authenticator';

/** Every `/v1` route: a valid API key, or `401 unauthorized`. Counts the request for the key's usage. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly usage: ApiKeyUsage,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    const principal = await this.authenticator.authenticate(req.headers.authorization, requestIdOf(req));
    req.principal = principal;
    await this.usage.record(principal.key_id);
    return true;
  }
}
