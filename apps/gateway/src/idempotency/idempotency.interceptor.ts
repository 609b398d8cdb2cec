import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Response } from 'express';
import { catchError, from, mergeMap, type Observable, of, throwError } from 'rxjs';
import { knownErrorResponse } from '../http/error-response';
import { type GatewayRequest, requestIdOf } from '../http/request-context';
import {
  IDEMPOTENCY_KEY_HEADER,
  isReplayableFailure,
  parseIdempotencyKey,
  REPLAYED_HEADER,
  requestFingerprint,
} from './idempotency.domain';
import { type IdempotencyLock, IdempotencyStore } from './idempotency.store';
import { IDEMPOTENCY_IDENTITY, type IdentifyRequest } from './idempotency-identity.decorator';

const GUARDED_METHODS = new Set(['POST', 'PATCH']);

/**
 * `Idempotency-Key` for every POST and PATCH of the routes it decorates: the same key (per account
 * and environment, or per admin) with the same request replays the first response; with another
 * request it is `422 idempotency_key_reused`. "The same" is the method, path and body, or the part of
 * the body a route names with `@IdempotencyIdentity`.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<GatewayRequest>();
    const res = http.getResponse<Response>();
    const key = GUARDED_METHODS.has(req.method)
      ? parseIdempotencyKey(req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()])
      : undefined;
    if (key === undefined) {
      return next.handle();
    }
    const identify = this.reflector.get<IdentifyRequest | undefined>(
      IDEMPOTENCY_IDENTITY,
      context.getHandler(),
    );
    const identity: unknown = identify ? identify(req.body) : req.body;
    const claim = await this.store.claim(
      scopeOf(req),
      key,
      requestFingerprint(req.method, req.path, identity),
    );
    if (claim.kind === 'replay') {
      res.status(claim.status);
      res.setHeader(REPLAYED_HEADER, 'true');
      return of(claim.body ?? undefined);
    }
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        await this.store.complete(claim.lock, res.statusCode, body);
        return body;
      }),
      catchError((error: unknown) =>
        from(this.settleFailure(claim.lock, error, req)).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }

  private async settleFailure(lock: IdempotencyLock, error: unknown, req: GatewayRequest): Promise<void> {
    const response = knownErrorResponse(error, requestIdOf(req));
    if (response && isReplayableFailure(response.status, response.body.error.code)) {
      await this.store.complete(lock, response.status, response.body);
    } else {
      await this.store.release(lock);
    }
  }
}

function scopeOf(req: GatewayRequest): string {
  // Per environment too: a key reused between test and live must never replay across them.
  if (req.principal) {
    return `account:${req.principal.account_id}:${req.principal.environment}`;
  }
  if (req.admin) {
    return 'admin';
  }
  throw new Error('Idempotency needs an authenticated caller: put it after an authentication guard');
}
