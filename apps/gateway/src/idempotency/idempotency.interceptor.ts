import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  Logger,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@cts/contracts';
import { type Response } from 'express';
import { lastValueFrom, type Observable, of } from 'rxjs';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings';
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

/** What the route's handler came to: its response body, or the error it threw. */
type Outcome = { body: unknown } | { error: unknown };

/**
 * `Idempotency-Key` for every POST and PATCH of the routes it decorates: the same key (per account
 * and environment, or per admin) with the same request replays the first response; with another
 * request it is `422 idempotency_key_reused`. "The same" is the method, path and body, or the part of
 * the body a route names with `@IdempotencyIdentity`.
 *
 * A keyed request the services do not answer within COMMAND_TIMEOUT_MS gets `503
 * service_unavailable` then, but its commands' replies are still taken for as long again
 * (`lateReplyMs`), and what the request comes to is recorded under its key: a retry with the key
 * replays a late success (with the secrets shown once: an account's `decryption_key`, API key and
 * webhook secrets) instead of creating again or finding the handle taken.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
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
    req.lateReplyMs = this.settings.commandTimeoutMs;
    // Set by Nest from the route before interceptors run: what a late success is recorded with.
    const declaredStatus = res.statusCode;
    const outcome: Promise<Outcome> = lastValueFrom(next.handle(), { defaultValue: undefined }).then(
      (body: unknown) => ({ body }),
      (error: unknown) => ({ error }),
    );
    const answered = await answeredWithin(outcome, this.settings.commandTimeoutMs);
    if (answered === undefined) {
      await this.store
        .markLate(claim.lock)
        .catch((error: unknown) => this.logger.warn(`marking a key as waiting failed: ${String(error)}`));
      outcome
        .then((late) => this.settle(claim.lock, late, lateStatus(res, declaredStatus), req))
        .catch((error: unknown) => this.logger.error(`recording a late answer failed: ${String(error)}`));
      throw new DomainError(
        'service_unavailable',
        'The service did not answer in time; retry with the same Idempotency-Key',
        { reason: 'deadline_exceeded' },
      );
    }
    await this.settle(claim.lock, answered, res.statusCode, req);
    if ('error' in answered) {
      throw answered.error;
    }
    return of(answered.body);
  }

  /** Keeps a response (or a failure worth replaying) under the key; frees the key after a 5xx. */
  private async settle(lock: IdempotencyLock, outcome: Outcome, status: number, req: GatewayRequest) {
    if ('body' in outcome) {
      await this.store.complete(lock, status, outcome.body);
      return;
    }
    const response = knownErrorResponse(outcome.error, requestIdOf(req));
    if (response && isReplayableFailure(response.status, response.body.error.code)) {
      await this.store.complete(lock, response.status, response.body);
    } else {
      await this.store.release(lock);
    }
  }
}

/**
 * A late success's status: the route's, unless its handler set one after the 503 went out (a held
 * transfer's `202`, set once its command has answered).
 */
function lateStatus(res: Response, declaredStatus: number): number {
  return res.statusCode === 503 ? declaredStatus : res.statusCode;
}

/** The outcome if it comes within `ms`, else undefined (the outcome may still come later). */
async function answeredWithin(outcome: Promise<Outcome>, ms: number): Promise<Outcome | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const tooLate = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([outcome, tooLate]);
  } finally {
    clearTimeout(timer);
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
