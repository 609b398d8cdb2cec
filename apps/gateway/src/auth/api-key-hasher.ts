import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings';

/**
 * The keyed hash under which an API key is stored and looked up (hex HMAC-SHA256): account-service
 * never sees a secret, and without the hash key a leaked table cannot be brute-forced.
 */
@Injectable()
export class ApiKeyHasher {
  private readonly key: Buffer;

  constructor(@Inject(GATEWAY_SETTINGS) settings: GatewaySettings) {
    this.key = Buffer.from(settings.apiKeyHashKey, 'utf8');
  }

  hash(secret: string): string {
    return createHmac('sha256', this.key).update(secret, 'utf8').digest('hex');
  }

  /** Constant-time comparison of two hex hashes. */
  same(a: string, b: string): boolean {
    const left = Buffer.from(a, 'hex');
    const right = Buffer.from(b, 'hex');
    return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
  }
}
