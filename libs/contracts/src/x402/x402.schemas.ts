import { z } from 'zod';
import { Timestamp } from '../parties';
import { AssetCode } from '../transfers/transfer.schemas';

/** What every x402 payment resource says: the amount is public on the ledger (issue 20). */
export const X402_PUBLIC_AMOUNT_NOTICE =
  'An x402 payment is a public token transfer: its amount, payer and payee are visible on the chain.';

/** A settling transaction's signature as reported (base58 of 64 bytes is 87 or 88 characters). */
export const X402ChainSignature = z.string().min(1).max(128);

export const X402PaymentStatus = z.enum(['signed', 'settled']);
export type X402PaymentStatus = z.infer<typeof X402PaymentStatus>;

/**
 * A signed x402 `exact` payment (`POST /v1/agents/x402/payments`). `payment_signature` is the value of
 * the retried request's `PAYMENT-SIGNATURE` header. The amount is public by nature (a public
 * TransferChecked), so it is shown, and `amount_public` says so.
 */
export const X402PaymentResource = z.object({
  payment_id: z.string(),
  status: X402PaymentStatus,
  resource: z.string(),
  scheme: z.literal('exact'),
  network: z.string(),
  pay_to: z.string(),
  asset: AssetCode,
  /** Decimal, in the asset's units (`0.01`). */
  amount: z.string(),
  /** The same amount in base units, as the 402 answer quoted it (`10000`). */
  amount_base_units: z.string(),
  header_name: z.literal('PAYMENT-SIGNATURE'),
  payment_signature: z.string(),
  amount_public: z.literal(true),
  notice: z.string(),
  /** The ledger signature once the facilitator's settlement is confirmed (`status: settled`). */
  chain_signature: z.string().nullable(),
  created_at: Timestamp,
  settled_at: Timestamp.nullable(),
});
export type X402PaymentResource = z.infer<typeof X402PaymentResource>;
