import { Inject, Injectable } from '@nestjs/common';
import {
  amountSealingContext,
  ASSET_DECIMALS,
  type AssetCode,
  balanceSealingContext,
  decryptionProofSealingContext,
  DomainError,
  memoSealingContext,
} from '@cts/contracts';
import {
  formatAmount,
  parseAmount,
  parseSealingKey,
  seal,
  sealAmount,
  type SealingKey,
  unsealAmount,
  utf8Encode,
} from '@cts/crypto';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings';

const AMOUNT_PROBLEMS = {
  invalid_format: 'must be a plain decimal string such as "12.5"',
  too_many_decimals: 'has more decimals than the asset allows',
  zero_not_allowed: 'must be greater than zero',
  too_large: 'is too large',
} as const;

/**
 * The only place a plaintext amount exists in the gateway: parsed from the request and sealed at
 * once (ARCHITECTURE §4), bound to the spending account, before anything goes on a topic; and a
 * proven balance, opened only to answer the account that proved it.
 */
@Injectable()
export class AmountSealer {
  private key: SealingKey | null = null;

  constructor(@Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings) {}

  sealAmount(accountId: string, amount: string, asset: AssetCode): string {
    const decimals = ASSET_DECIMALS[asset];
    const parsed = parseAmount(amount, decimals);
    if (!parsed.ok) {
      const detail =
        parsed.reason === 'too_many_decimals'
          ? `has more than ${decimals} decimals (${asset})`
          : AMOUNT_PROBLEMS[parsed.reason];
      throw new DomainError('invalid_request', `amount ${detail}`, { param: 'amount' });
    }
    return sealAmount(this.sealingKey(), parsed.value, amountSealingContext(accountId));
  }

  sealMemo(accountId: string, memo: string): string {
    return seal(this.sealingKey(), utf8Encode(memo), memoSealingContext(accountId));
  }

  /** The balances call's `decryption_proof` names the amounts: it crosses to transfer-service sealed. */
  sealDecryptionProof(accountId: string, proof: string): string {
    return seal(this.sealingKey(), utf8Encode(proof), decryptionProofSealingContext(accountId));
  }

  /** Opens a proven balance transfer-service sealed, for the response to the account itself. */
  openBalance(accountId: string, asset: AssetCode, sealedAmount: string): string {
    const baseUnits = unsealAmount(this.sealingKey(), sealedAmount, balanceSealingContext(accountId, asset));
    return formatAmount(baseUnits, ASSET_DECIMALS[asset]);
  }

  private sealingKey(): SealingKey {
    this.key ??= parseSealingKey(this.settings.dataSealingKey(), 'DATA_SEALING_KEY');
    return this.key;
  }
}
