import { Inject, Injectable } from '@nestjs/common';
import { parseSealingKey, type SealingKey, seal, unseal } from '@cts/crypto';
import { RUNTIME, type Runtime } from '@cts/platform';
import { secretSealingContext } from './subscription.domain';

/**
 * Webhook secrets at rest: sealed (AES-256-GCM) under DATA_SEALING_KEY and bound to their
 * subscription id, so a sealed secret copied to another row does not open.
 */
@Injectable()
export class SecretBox {
  private key: SealingKey | undefined;

  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  seal(subscriptionId: string, secret: string): string {
    return seal(this.sealingKey(), Buffer.from(secret, 'utf8'), secretSealingContext(subscriptionId));
  }

  unseal(subscriptionId: string, sealed: string): string {
    return Buffer.from(unseal(this.sealingKey(), sealed, secretSealingContext(subscriptionId))).toString(
      'utf8',
    );
  }

  private sealingKey(): SealingKey {
    this.key ??= parseSealingKey(this.runtime.secrets.dataSealingKey, 'DATA_SEALING_KEY');
    return this.key;
  }
}
