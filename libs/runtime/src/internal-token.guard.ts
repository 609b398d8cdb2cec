import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { internalTokenCheck } from '@cts/platform';
import { type IncomingMessage } from 'node:http';
import { type Runtime } from './runtime';
import { RUNTIME } from './runtime.tokens';

/** A service's internal paths: only with `Authorization: Bearer <INTERNAL_TOKEN>` when that is set. */
@Injectable()
export class InternalTokenGuard implements CanActivate {
  private readonly allowed: (authorization: string | undefined) => boolean;

  constructor(@Inject(RUNTIME) runtime: Pick<Runtime, 'config'>) {
    this.allowed = internalTokenCheck(runtime.config.INTERNAL_TOKEN);
  }

  canActivate(context: ExecutionContext): boolean {
    const { headers } = context.switchToHttp().getRequest<IncomingMessage>();
    if (!this.allowed(headers.authorization)) {
      throw new UnauthorizedException('this internal path takes only the deployment’s INTERNAL_TOKEN');
    }
    return true;
  }
}
