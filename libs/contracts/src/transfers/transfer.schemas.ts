import { z } from 'zod';
import { Timestamp } from '../parties';
import { TransferStatus } from './transfer.events';

/** Assets every ledger knows (ARCHITECTURE §5): code → decimals. */
export const ASSET_DECIMALS = { USDC: 6, SOL: 9 } as const;
export const AssetCode = z.enum(['USDC', 'SOL']);
export type AssetCode = z.infer<typeof AssetCode>;

/**
 * A transfer as its reader sees it (spec §2.1). `encrypted_amount` opens only with the reader's
 * `decryption_key`; there is never a plaintext amount, even for the parties.
 */
export const TransferResource = z.object({
  transfer_id: z.string(),
  status: TransferStatus,
  direction: z.enum(['sent', 'received']),
  from: z.string(),
  to: z.string(),
  asset: AssetCode,
  confidential: z.boolean(),
  chain_signature: z.string().nullable(),
  encrypted_amount: z.string(),
  encrypted_memo: z.string().nullable(),
  failure_reason: z.string().nullable(),
  created_at: Timestamp,
  confirmed_at: Timestamp.nullable(),
});
export type TransferResource = z.infer<typeof TransferResource>;

/** An agent transfer above its threshold: held, nothing moved (ARCHITECTURE §6). */
export const HeldTransaction = z.object({
  transaction_id: z.string(),
  status: z.literal('pending_approval'),
  agent: z.string(),
  to: z.string(),
  asset: AssetCode,
  requested_at: Timestamp,
  expires_at: Timestamp,
});
export type HeldTransaction = z.infer<typeof HeldTransaction>;

export const BalanceEntry = z.object({
  asset: AssetCode,
  has_balance: z.boolean(),
  /** `?include=ciphertext`: the available-balance ElGamal ciphertext the client proves against. */
  ciphertext: z.string().optional(),
  /** `?include=ciphertext`: the same balance as an AE ciphertext (only the account opens it), for large balances. */
  decryptable_balance: z.string().optional(),
  /**
   * `?include=ciphertext`, agents only: the public balance the agent may spend (what its signed,
   * unsettled x402 payments have not promised), a decimal string. It is on the chain for anyone to
   * read, and not in `ciphertext`: `amount` is the two together.
   */
  public_amount: z.string().optional(),
  amount: z.string().optional(),
});
export type BalanceEntry = z.infer<typeof BalanceEntry>;
