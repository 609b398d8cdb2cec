import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { DomainError } from '@cts/contracts';
import { type Request } from 'express';
import { type Observable } from 'rxjs';
import { RouteParamtypes, routeTakes } from './route-arguments';

const READS = new Set(['GET', 'HEAD']);

/**
 * A GET whose handler declares no query (`@Query`) takes none: any parameter is unknown, answered
 * `400 invalid_request` naming it, as the validation pipe answers one a declared query does not
 * list. So a misspelt parameter (`?limt=5`) is never taken as honoured, on any route, new ones too.
 */
@Injectable()
export class UndeclaredQueryInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const [unknown] = Object.keys(req.query);
    if (unknown !== undefined && READS.has(req.method) && !routeTakes(context, RouteParamtypes.QUERY)) {
      throw new DomainError('invalid_request', `Unknown query parameter ${unknown}`, { param: unknown });
    }
    return next.handle();
  }
}
