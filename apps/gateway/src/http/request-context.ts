import { type MessageContext, type Principal } from '@cts/contracts';
import { type Request } from 'express';
import { type RateLimitDecision } from '../rate-limit/rate-limiter';

/** What the gateway attaches to a request on its way through middleware and guards. */
export interface GatewayRequest extends Request {
  requestId?: string;
  principal?: Principal;
  /** The request counted against its API key's limit (started by the API key guard). */
  rateLimit?: Promise<RateLimitDecision>;
  admin?: boolean;
  /**
   * Set by the idempotency interceptor for a request with an Idempotency-Key: its commands' replies
   * are still taken this long past their deadline, so a late answer is recorded for the retry.
   */
  lateReplyMs?: number;
}

export function requestIdOf(req: Request): string {
  return (req as GatewayRequest).requestId ?? 'req_unknown';
}

export function principalOf(req: Request): Principal {
  const { principal } = req as GatewayRequest;
  if (!principal) {
    // Reaching this is a wiring bug: a /v1 route without the API key guard.
    throw new Error('No authenticated principal on this request');
  }
  return principal;
}

/** Who calls: the API key's principal, and the context every command it causes carries. */
export interface Caller {
  principal: Principal;
  context: MessageContext;
}

export function callerOf(req: Request): Caller {
  const principal = principalOf(req);
  return {
    principal,
    context: {
      correlationId: requestIdOf(req),
      causationId: null,
      environment: principal.environment,
      accountId: principal.account_id,
      ...lateReplyOf(req),
    },
  };
}

/** The context of an admin command: no key environment, on behalf of the target account (if any). */
export function adminContextOf(req: Request, accountId: string | null): MessageContext {
  return {
    correlationId: requestIdOf(req),
    causationId: null,
    environment: null,
    accountId,
    ...lateReplyOf(req),
  };
}

function lateReplyOf(req: Request): Pick<MessageContext, 'lateReplyMs'> {
  const { lateReplyMs } = req as GatewayRequest;
  return lateReplyMs === undefined ? {} : { lateReplyMs };
}
