import { z } from 'zod';
import { defineCommand } from '../contract';
import { Environment } from '../environment';
import { Timestamp } from '../parties';
import { CommandTopics } from '../topics';
import { TransferStatus } from './transfer.events';
import { AssetCode, BalanceEntry, HeldTransaction, TransferResource } from './transfer.schemas';

const Base64 = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/);

/**
 * Idempotency keys live in two namespaces: what a client sent as `Idempotency-Key`, and what a
 * service derives for its own retries (`approval:<transaction_id>`). WARNING: a client must never be
 * able to name an internal key — it could pre-empt the settlement of a held payment with a transfer
 * of its own under that key — so every key on the wire carries its namespace.
 */
export const clientIdempotencyKey = (key: string): string => `client:${key}`;
export const internalIdempotencyKey = (key: string): string => `internal:${key}`;
const NamespacedIdempotencyKey = z
  .string()
  .regex(/^(client|internal):./, 'must be client:<key> or internal:<key>');

/**
 * Custody keys and ledger accounts for a new account, in every environment. The `decryption_key`
 * travels back encrypted to `recipient_key`, a one-time ElGamal key of the requesting gateway, so the
 * reply topic and the stored reply never hold it in the clear.
 */
export const ProvisionLedgerAccount = defineCommand(
  CommandTopics.transferProvisionAccount,
  z.object({ account_id: z.string(), recipient_key: Base64 }),
  z.object({
    addresses: z.record(Environment, z.string()),
    encrypted_decryption_key: z.string(),
  }),
);

export const CreateTransfer = defineCommand(
  CommandTopics.transferCreate,
  z.object({
    account_id: z.string(),
    environment: Environment,
    /** The key that created it (per-key totals); null when an approval settles a held transfer. */
    api_key_id: z.string().nullable(),
    to: z.string().min(1).max(256),
    asset: AssetCode,
    confidential: z.boolean(),
    /** `sealAmount` under DATA_SEALING_KEY with `amountSealingContext(account_id)`. */
    sealed_amount: z.string(),
    /** The memo sealed like the amount (context `memo:<account_id>`). */
    sealed_memo: z.string().nullable(),
    /** `clientIdempotencyKey(header)` or `internalIdempotencyKey(…)`, never a bare string. */
    idempotency_key: NamespacedIdempotencyKey.nullable(),
    /** Set when approval-service settles a held agent transaction (its reserved transfer id). */
    approved_transfer_id: z.string().nullable().default(null),
  }),
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('transfer'), transfer: TransferResource }),
    z.object({ kind: z.literal('held'), transaction: HeldTransaction }),
  ]),
);

export const GetTransfer = defineCommand(
  CommandTopics.transferGet,
  z.object({ account_id: z.string(), environment: Environment, transfer_id: z.string() }),
  TransferResource,
);

export const ListTransfers = defineCommand(
  CommandTopics.transferList,
  z.object({
    account_id: z.string(),
    environment: Environment,
    limit: z.number().int().min(1).max(100),
    offset: z.number().int().min(0),
    status: TransferStatus.optional(),
    from: Timestamp.optional(),
    to: Timestamp.optional(),
  }),
  z.object({
    transfers: z.array(TransferResource),
    limit: z.number(),
    offset: z.number(),
    has_more: z.boolean(),
  }),
);

/**
 * A balance as it travels back to the gateway: a proven amount only sealed (`sealAmount` under
 * DATA_SEALING_KEY with `balanceSealingContext(account_id, asset)`), never in plaintext.
 */
export const SealedBalanceEntry = BalanceEntry.omit({ amount: true }).extend({
  sealed_amount: z.string().optional(),
});
export type SealedBalanceEntry = z.infer<typeof SealedBalanceEntry>;

export const GetBalances = defineCommand(
  CommandTopics.transferBalances,
  z.object({
    account_id: z.string(),
    environment: Environment,
    include_ciphertext: z.boolean(),
    /**
     * The raw `decryption_proof` (it names the amounts), sealed under DATA_SEALING_KEY with
     * `decryptionProofSealingContext(account_id)`; verified by transfer-service.
     */
    sealed_decryption_proof: z.string().nullable(),
  }),
  z.object({ balances: z.array(SealedBalanceEntry) }),
);

export const FundTestAccount = defineCommand(
  CommandTopics.transferFund,
  z.object({ account_id: z.string(), environment: Environment, asset: AssetCode, sealed_amount: z.string() }),
  z.object({
    asset: AssetCode,
    status: z.literal('confirmed'),
    chain_signature: z.string(),
    funded_at: Timestamp,
  }),
);

/** Spec §5.5 "total USDC transferred" per key, as AE ciphertexts only the account can open. */
export const GetKeyTotals = defineCommand(
  CommandTopics.transferKeyTotals,
  z.object({ account_id: z.string() }),
  z.object({ totals: z.array(z.object({ key_id: z.string(), encrypted_usdc_total: z.string() })) }),
);
