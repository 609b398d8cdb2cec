import {
  type AssetCode,
  type Environment,
  X402_PUBLIC_AMOUNT_NOTICE,
  type X402PaymentResource,
  type X402PaymentStatus,
} from '@cts/contracts';
import { decimalAmount } from './x402-quote.domain';

export interface X402PaymentRecord {
  id: string;
  environment: Environment;
  accountId: string;
  idempotencyKey: string | null;
  approvedTransactionId: string | null;
  /**
   * `held`: waiting for its owner (nothing signed yet); `signing`: claimed by one call once approved
   * (nothing handed out yet); then as the resource says.
   */
  status: X402PaymentStatus | 'held' | 'signing';
  resource: string;
  network: string;
  payTo: string;
  asset: AssetCode;
  amountBaseUnits: string;
  feePayer: string;
  paymentSignature: string | null;
  message: string | null;
  chainSignature: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

/**
 * A Solana blockhash lives ~150 slots (about a minute): a payment signed longer ago can no longer land,
 * so it promises nothing of the public balance any more.
 */
export const UNSETTLED_WINDOW_MS = 3 * 60_000;

/**
 * What of an agent's public balance is its own to spend: what payments signed and not settled yet
 * (which may still land and take it) have not promised. Never below zero: a payment that landed
 * unreported is counted as promised though it already left (docs/decisions.md, x402).
 */
export const spendablePublic = (publicAmount: bigint, promised: bigint): bigint =>
  publicAmount > promised ? publicAmount - promised : 0n;

const DECIMALS: Record<AssetCode, number> = { USDC: 6, SOL: 9 };

export const decimalAmountOf = (payment: Pick<X402PaymentRecord, 'asset' | 'amountBaseUnits'>): string =>
  decimalAmount(BigInt(payment.amountBaseUnits), DECIMALS[payment.asset]);

export type SignedX402Payment = X402PaymentRecord & {
  status: X402PaymentStatus;
  paymentSignature: string;
  message: string;
};

export const isSigned = (payment: X402PaymentRecord): payment is SignedX402Payment =>
  (payment.status === 'signed' || payment.status === 'settled') &&
  payment.paymentSignature !== null &&
  payment.message !== null;

/** Whether a new quote asks for exactly what this payment pays: same resource, payee, asset, amount. */
export const sameTerms = (
  payment: X402PaymentRecord,
  terms: Pick<X402PaymentRecord, 'resource' | 'payTo' | 'asset' | 'amountBaseUnits'>,
): boolean =>
  payment.resource === terms.resource &&
  payment.payTo === terms.payTo &&
  payment.asset === terms.asset &&
  payment.amountBaseUnits === terms.amountBaseUnits;

export function toX402Resource(payment: SignedX402Payment): X402PaymentResource {
  return {
    payment_id: payment.id,
    status: payment.status,
    resource: payment.resource,
    scheme: 'exact',
    network: payment.network,
    pay_to: payment.payTo,
    asset: payment.asset,
    amount: decimalAmountOf(payment),
    amount_base_units: payment.amountBaseUnits,
    header_name: 'PAYMENT-SIGNATURE',
    payment_signature: payment.paymentSignature,
    amount_public: true,
    notice: X402_PUBLIC_AMOUNT_NOTICE,
    chain_signature: payment.chainSignature,
    created_at: payment.createdAt.toISOString(),
    settled_at: payment.settledAt?.toISOString() ?? null,
  };
}

/**
 * The x402 v2 payment payload (what `@x402/core` puts in PAYMENT-SIGNATURE): the `accepted` entry and
 * the 402 answer's `resource` and `extensions` unchanged, the scheme's payload, base64 of its JSON.
 */
export function encodePaymentSignature(parts: {
  accepted: Record<string, unknown>;
  resource: Record<string, unknown> | null;
  extensions: Record<string, unknown> | null;
  transaction: string;
}): string {
  const payload = {
    x402Version: 2,
    ...(parts.resource === null ? {} : { resource: parts.resource }),
    accepted: parts.accepted,
    payload: { transaction: parts.transaction },
    ...(parts.extensions === null ? {} : { extensions: parts.extensions }),
  };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64');
}
