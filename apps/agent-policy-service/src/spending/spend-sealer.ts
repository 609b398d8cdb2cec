import { Inject, Injectable } from '@nestjs/common';
import { amountSealingContext, DomainError } from '@cts/contracts';
import { RUNTIME, type Runtime } from '@cts/runtime';
import { CryptoError, parseSealingKey, sealAmount, type SealingKey, unsealAmount } from '@cts/crypto';

export interface DailyBucket {
  agentAccountId: string;
  environment: string;
  asset: string;
  day: string;
}

/** What a sealed reservation or daily total is bound to: unsealing it anywhere else fails. */
export const reservationContext = (reservationId: string, agentAccountId: string): string =>
  `spend-reservation:${agentAccountId}:${reservationId}`;
export const dailyTotalContext = (b: DailyBucket): string =>
  `spend:${b.agentAccountId}:${b.environment}:${b.asset}:${b.day}`;

/**
 * The only place this service opens or closes an amount (DATA_SEALING_KEY). Plaintext amounts live
 * in memory for one evaluation; they are never stored, logged or replied.
 */
@Injectable()
export class SpendSealer {
  private key?: SealingKey;

  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  private get sealingKey(): SealingKey {
    this.key ??= parseSealingKey(this.runtime.secrets.dataSealingKey, 'DATA_SEALING_KEY');
    return this.key;
  }

  /** The amount the gateway sealed for this agent; a value sealed for another account does not open. */
  openTransferAmount(sealed: string, agentAccountId: string): bigint {
    try {
      return unsealAmount(this.sealingKey, sealed, amountSealingContext(agentAccountId));
    } catch (error) {
      if (error instanceof CryptoError) {
        throw new DomainError('invalid_request', 'sealed_amount does not open for this agent', {
          param: 'sealed_amount',
        });
      }
      throw error;
    }
  }

  sealReservation(amount: bigint, reservationId: string, agentAccountId: string): string {
    return sealAmount(this.sealingKey, amount, reservationContext(reservationId, agentAccountId));
  }

  openReservation(sealed: string, reservationId: string, agentAccountId: string): bigint {
    return unsealAmount(this.sealingKey, sealed, reservationContext(reservationId, agentAccountId));
  }

  sealDailyTotal(total: bigint, bucket: DailyBucket): string {
    return sealAmount(this.sealingKey, total, dailyTotalContext(bucket));
  }

  openDailyTotal(sealed: string, bucket: DailyBucket): bigint {
    return unsealAmount(this.sealingKey, sealed, dailyTotalContext(bucket));
  }
}
