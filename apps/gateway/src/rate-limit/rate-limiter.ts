import { Inject, Injectable } from '@nestjs/common';
import { CacheStore } from '@cts/platform';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings';

const WINDOW_MS = 60_000;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

/**
 * A fixed one-minute window per API key (named by its keyed hash, known before the key is looked
 * up), counted in the shared cache so every replica agrees.
 */
@Injectable()
export class RateLimiter {
  constructor(
    private readonly cache: CacheStore,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  async hit(keyHash: string): Promise<RateLimitDecision> {
    const now = this.settings.now();
    const window = Math.floor(now / WINDOW_MS);
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    // The window number is part of the key, so the ttl only has to clean up after the window.
    const { value } = await this.cache.increment(`ratelimit:${keyHash}:${window}`, resetSeconds + 1);
    const limit = this.settings.rateLimitPerMinute;
    return { allowed: value <= limit, limit, remaining: Math.max(0, limit - value), resetSeconds };
  }
}
