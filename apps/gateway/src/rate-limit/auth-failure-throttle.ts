import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@cts/contracts';
import { CacheStore } from '@cts/platform';
import { type Request, type Response } from 'express';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings';

const WINDOW_MS = 60_000;

/**
 * Failed authentications per client address in a fixed one-minute window, counted in the shared
 * cache (Redis when configured) so every replica agrees. Only failures count and only a failure is
 * refused: a valid key from the same address is never turned away for someone else's guesses.
 */
@Injectable()
export class AuthFailureThrottle {
  constructor(
    private readonly cache: CacheStore,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  /**
   * Counts one failure of `req`'s address and returns what to throw: the failure itself while under
   * the limit, `429 rate_limited` with `Retry-After` past it.
   */
  async failed(req: Request, res: Response, failure: unknown): Promise<unknown> {
    const now = this.settings.now();
    const window = Math.floor(now / WINDOW_MS);
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const { value } = await this.cache.increment(`authfail:${address}:${window}`, retryAfter + 1);
    if (value <= this.settings.authFailuresPerMinute) {
      return failure;
    }
    res.setHeader('Retry-After', String(retryAfter));
    return new DomainError(
      'rate_limited',
      `Too many failed authentications from this address; retry in ${retryAfter} s`,
    );
  }
}
