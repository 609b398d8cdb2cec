import {
  HeldX402Transaction,
  withoutControlCharacters,
  X402ChainSignature,
  X402PaymentResource,
} from '@cts/contracts';
import { z } from 'zod';
import { IdString } from '../../http/query.schemas';

const MAX_HEADER = 32_768;

export const X402PaymentBody = z
  .object({
    payment_required: z
      .union([z.string().min(1).max(MAX_HEADER), z.record(z.string(), z.unknown())])
      .describe(
        'The resource server’s 402 answer as received: the PAYMENT-REQUIRED header value (base64) or its decoded JSON (x402 version 2)',
      ),
    // Checked here, before anything is signed: PostgreSQL cannot store a NUL, so a later insert would fail.
    resource: withoutControlCharacters(z.string().min(1).max(2048)).describe(
      'The URL being paid for (http or https)',
    ),
    received_at: z.iso
      .datetime()
      .optional()
      .describe('When the 402 answer arrived; the quote expires maxTimeoutSeconds later (409 quote_expired)'),
    approved_transaction_id: IdString()
      .optional()
      .describe(
        'Pay a payment held above the threshold once its owner approved it (same resource, payee, amount)',
      ),
  })
  .strict()
  .meta({ id: 'X402PaymentRequest' });
export type X402PaymentBody = z.infer<typeof X402PaymentBody>;

export const X402SettlementBody = z
  .object({
    payment_response: z
      .string()
      .min(1)
      .max(MAX_HEADER)
      .optional()
      .describe('The PAYMENT-RESPONSE header of the paid response, as received'),
    chain_signature: X402ChainSignature.optional().describe('Or the settling transaction’s signature'),
  })
  .strict()
  .meta({ id: 'X402SettlementRequest' });
export type X402SettlementBody = z.infer<typeof X402SettlementBody>;

export const X402PaymentIdParam = IdString();

export const X402PaymentSchema = X402PaymentResource.meta({ id: 'X402Payment' });

export const HeldX402TransactionSchema = HeldX402Transaction.meta({
  id: 'HeldX402Transaction',
  description:
    'An x402 payment above the human-in-the-loop threshold: held for the owner’s approval, nothing signed (HTTP 202); `x402` says whom it pays and for which resource',
});
