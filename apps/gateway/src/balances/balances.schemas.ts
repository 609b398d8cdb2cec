import { BalanceEntry } from '@cts/contracts';
import { DECRYPTION_PROOF_PARAM_MAX_LENGTH } from '@cts/crypto';
import { z } from 'zod';

export const BalancesQuery = z
  .object({
    include: z
      .literal('ciphertext')
      .optional()
      .describe('Add each available-balance ElGamal ciphertext (base64), to build a proof from'),
    decryption_proof: z
      .string()
      .max(DECRYPTION_PROOF_PARAM_MAX_LENGTH)
      .optional()
      .describe(
        'base64 of {"v":1,"proofs":[{asset, amount, proof}]} built client-side (SDK createDecryptionProof); also accepted as header X-Decryption-Proof',
      ),
  })
  .strict();
export type BalancesQuery = z.infer<typeof BalancesQuery>;

export const BalancesSchema = z.object({ balances: z.array(BalanceEntry) }).meta({
  id: 'Balances',
  description: '`amount` only for assets whose proof was valid; `has_balance` always',
});
