import { Inject, Injectable } from '@nestjs/common';
import { parseSealingKey, type SealingKey, seal, unseal } from '@cts/crypto';
import { RUNTIME, type Runtime } from '@cts/runtime';
import { secretSealingContext } from './subscription.domain';

/** Opened secrets kept in memory: opening one (AES-GCM in JavaScript) took 4 % of an attempt. */
const OPENED_LIMIT = 1_000;

/**
 * Webhook secrets at rest: sealed (AES-256-GCM) under DATA_SEALING_KEY and bound to their
 * subscription id, so a sealed secret copied to another row does not open.
 */
@Injectable()
export class SecretBox {
  private key: SealingKey | undefined;
  /** By subscription id and sealed text, so a cached secret is bound to its row like a sealed one. */
  private readonly opened = new Map<string, string>();

  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  seal(subscriptionId: string, secret: string): string {
    return seal(this.sealingKey(), Buffer.from(secret, 'utf8'), secretSealingContext(subscriptionId));
  }

  unseal(subscriptionId: string, sealed: string): string {
    const cacheKey = `${subscriptionId}\0${sealed}`;
    const cached = this.opened.get(cacheKey);
    if (cached !== undefined) {
      return cached;
    }
    const secret = Buffer.from(
      unseal(this.sealingKey(), sealed, secretSealingContext(subscriptionId)),
    ).toString('utf8');
    if (this.opened.size >= OPENED_LIMIT) {
      this.opened.delete(this.opened.keys().next().value as string);
    }
    this.opened.set(cacheKey, secret);
    return secret;
  }

  private sealingKey(): SealingKey {
    this.key ??= parseSealingKey(this.runtime.secrets.dataSealingKey, 'DATA_SEALING_KEY');
    return this.key;
  }
}
