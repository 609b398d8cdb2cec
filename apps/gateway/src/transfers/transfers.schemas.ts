import {
  AssetCode,
  HeldTransaction,
  isWellFormedText,
  TransferResource,
  TransferStatus,
} from '@cts/contracts';
import { MEMO_MAX_BYTES } from '@cts/crypto';
import { z } from 'zod';
import { IdString, QueryInteger } from '../http/query.schemas';

/**
 * A plain decimal (no sign, exponent, leading zeros or bare dot), not zero. The asset's decimals are
 * checked after, where the error can name the asset's limit.
 */
export const AMOUNT_PATTERN = /^(?!0(\.0+)?$)(0|[1-9][0-9]{0,19})(\.[0-9]+)?$/;

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

export const CreateTransferBody = z
  .object({
    to: z
      .string()
      .trim()
      .min(1)
      .max(256)
      .describe('Recipient `@handle`, agent handle, verified domain or on-chain address'),
    amount: z
      .string()
      .max(40)
      .regex(AMOUNT_PATTERN, 'must be a plain decimal string greater than zero, such as "12.5"')
      .describe('Decimal string, > 0, at most the asset’s decimals (USDC 6, SOL 9)'),
    asset: AssetCode.default('USDC'),
    confidential: z.boolean().default(true),
    // Limited in the unit the encryption enforces: 400 CJK characters are 1,200 bytes.
    memo: z
      .string()
      .max(MEMO_MAX_BYTES)
      .refine((memo) => utf8Bytes(memo) <= MEMO_MAX_BYTES, `must be at most ${MEMO_MAX_BYTES} bytes of UTF-8`)
      // A lone surrogate has no UTF-8 form: encrypted, it would come back as U+FFFD, not as sent.
      .refine(isWellFormedText, 'must be well-formed Unicode (no lone surrogate)')
      .optional()
      .describe(
        `At most ${MEMO_MAX_BYTES} bytes of UTF-8. Encrypted for sender and recipient; the service stores only ciphertext`,
      ),
  })
  .strict()
  .meta({ id: 'CreateTransferRequest' });
export type CreateTransferBody = z.infer<typeof CreateTransferBody>;

export const TransferSchema = TransferResource.meta({
  id: 'Transfer',
  description:
    'A transfer as the caller sees it. Never an amount: `encrypted_amount` opens only with the caller’s decryption_key (SDK decryptAmount).',
});

export const CreatedTransferSchema = TransferResource.omit({ from: true, confirmed_at: true }).meta({
  id: 'CreatedTransfer',
  description: 'Spec §4.1 response; `status` is `confirmed` when settlement completed within the request',
});

export const HeldTransactionSchema = HeldTransaction.meta({
  id: 'HeldAgentTransaction',
  description:
    'An agent transfer above its human-in-the-loop threshold: held for approval, nothing moved (HTTP 202)',
});

export const TransferListSchema = z
  .object({
    transfers: z.array(TransferSchema),
    limit: z.number(),
    offset: z.number(),
    has_more: z.boolean(),
  })
  .meta({ id: 'TransferList' });

export const ListTransfersQuery = z
  .object({
    limit: QueryInteger(1, 100, 20),
    offset: QueryInteger(0, Number.MAX_SAFE_INTEGER, 0),
    status: TransferStatus.optional(),
    from: z.iso.datetime({ offset: true }).optional().describe('Only transfers created after this time'),
    to: z.iso.datetime({ offset: true }).optional().describe('Only transfers created before this time'),
  })
  .strict();
export type ListTransfersQuery = z.infer<typeof ListTransfersQuery>;

export const TransferIdParam = IdString();
