import { type AccountKeyMaterial } from '@cts/crypto';
import { type Address, type Signature } from '@solana/kit';

export type LedgerEnvironment = 'test' | 'live';

/**
 * Per-account key material, unsealed by custody for one operation and never stored by the ledger:
 * `{ signingSeed: 32-byte ed25519 seed; elgamalSecret: 32 bytes; aeKey: 16 bytes }`. One definition,
 * shared with custody (which seals exactly this shape) through @cts/crypto.
 */
export type { AccountKeyMaterial } from '@cts/crypto';

export interface LedgerAsset {
  code: string;
  mint: Address;
  decimals: number;
}

export interface ConfidentialTransferRequest {
  from: AccountKeyMaterial;
  toOwner: Address;
  asset: string;
  /** Base units (USDC 6 decimals, SOL 9), at most 2^48 - 1 per transfer. */
  amount: bigint;
  /**
   * Called with the settling transaction's signature once it is signed and before anything is sent:
   * the caller records it, so after a crash it can ask the ledger what became of the transfer.
   */
  onSigned?: (signature: Signature) => Promise<void>;
  /**
   * From `readForConfidentialTransfer` of this ledger for the same two owners, with nothing sent from
   * the source since (the caller's lock): the transfer then reads nothing of its own.
   */
  reading?: ConfidentialTransferReading;
}

/**
 * What a confidential transfer reads before it proves, read at once: the source's account, for the
 * caller's balance check, and (kept by the ledger that read it) the rest the proof needs.
 */
export interface ConfidentialTransferReading {
  readonly source: LedgerAccountView;
}

export type StandardTransferRequest = Omit<ConfidentialTransferRequest, 'reading'> & {
  /**
   * Public base units promised to signed payments not yet settled (an agent's x402 float): the
   * transfer pays from the rest of the public balance only, and withdraws what that lacks.
   */
  committed?: bigint;
};

export interface LedgerSubmission {
  /** Signature of the transaction that moved the funds (the last one of the plan). */
  signature: Signature;
}

export interface ApplyPendingResult {
  /** Null when nothing was pending: no transaction was sent. */
  signature: Signature | null;
}

interface AccountViewBase {
  owner: Address;
  asset: string;
  /** The owner's associated token account for the asset. */
  tokenAccount: Address;
}

export interface MissingAccountView extends AccountViewBase {
  exists: false;
  confidentialReady: false;
}

export interface PublicAccountView extends AccountViewBase {
  exists: true;
  confidentialReady: false;
  /** The non-confidential (public) token balance, base units. */
  publicAmount: bigint;
}

/** Raw ledger bytes only: the ledger never decrypts on its own. */
export interface ConfidentialAccountView extends AccountViewBase {
  exists: true;
  confidentialReady: true;
  publicAmount: bigint;
  /** 32 bytes. */
  elgamalPubkey: Uint8Array;
  /** 64-byte ElGamal ciphertext of the available balance. */
  availableBalanceCiphertext: Uint8Array;
  /** 36-byte AE ciphertext of the available balance (openable with the AE key). */
  decryptableAvailableBalance: Uint8Array;
  /** 64-byte ElGamal ciphertexts of the pending balance, low 16 bits and high bits. */
  pendingBalanceLo: Uint8Array;
  pendingBalanceHi: Uint8Array;
  pendingCreditCounter: bigint;
  /**
   * The AE copy is short of the balance: a credit raced the last apply (its counters differ). A
   * transfer proved against it fails; applying the pending balance restates it.
   */
  decryptableStale: boolean;
}

export type LedgerAccountView = MissingAccountView | PublicAccountView | ConfidentialAccountView;

export type SignatureOutcome = 'confirmed' | 'failed' | 'unknown';

/** An x402 `exact` payment to sign (never sent by us: the facilitator adds its signature and sends it). */
export interface ExactPaymentRequest {
  from: AccountKeyMaterial;
  asset: string;
  payTo: Address;
  /** Base units. */
  amount: bigint;
  /** The facilitator's `extra.feePayer`. */
  feePayer: Address;
  memo: string | null;
}

export interface SignedExactPayment {
  /** Base64 wire transaction signed by the payer only. */
  transaction: string;
  /** Base64 message bytes: what the fee payer's signature must cover. */
  message: string;
  payer: Address;
}

export interface PublicBalanceResult {
  /** Base units moved from the confidential to the public balance (0: the public balance covered it). */
  withdrawn: bigint;
  signature: Signature | null;
}

/**
 * What transfer-service needs from a ledger. One implementation (the Solana RPC adapter) serves real
 * clusters and the local runtime alike. Settlements from one source account must be serialized by the
 * caller across replicas: a proof is bound to the source's current balance ciphertext.
 */
export interface LedgerPort {
  readonly environment: LedgerEnvironment;
  /** Checks the cluster can do confidential transfers; rejects with ConfidentialTransfersUnavailableError. */
  init(): Promise<void>;
  assets(): LedgerAsset[];
  /** Creates and configures the owner's confidential token account for every asset. Idempotent. */
  openAccounts(keys: AccountKeyMaterial): Promise<Address>;
  /** Test ledgers only: mints, deposits and applies, so the amount lands in the available balance. */
  fundTestAccount(keys: AccountKeyMaterial, asset: string, amount: bigint): Promise<LedgerSubmission>;
  /** One round of reads for a confidential transfer from `fromOwner` to `toOwner`: see the request's `reading`. */
  readForConfidentialTransfer(
    fromOwner: Address,
    toOwner: Address,
    asset: string,
  ): Promise<ConfidentialTransferReading>;
  transferConfidential(request: ConfidentialTransferRequest): Promise<LedgerSubmission>;
  /**
   * Moves received funds into the available balance: the pending balance and, with
   * `depositPublic`, the whole public balance (what standard transfers paid in) too.
   */
  applyPendingBalance(
    keys: AccountKeyMaterial,
    asset: string,
    options?: { depositPublic?: boolean },
  ): Promise<ApplyPendingResult>;
  /** Withdraws from the sender's confidential balance and pays the recipient's public balance. */
  transferStandard(request: StandardTransferRequest): Promise<LedgerSubmission>;
  /**
   * Makes the owner's public balance hold at least `amount`, withdrawing only what it lacks from the
   * confidential available balance (Token-2022 withdraw with its equality and range proofs).
   * `committed`: public base units already promised to signed payments not yet settled; they are not
   * counted as available.
   */
  ensurePublicBalance(
    keys: AccountKeyMaterial,
    asset: string,
    amount: bigint,
    committed?: bigint,
  ): Promise<PublicBalanceResult>;
  /** Builds and partially signs (the payer only) an x402 `exact` payment; sends nothing. */
  signExactPayment(request: ExactPaymentRequest): Promise<SignedExactPayment>;
  readAccount(owner: Address, asset: string): Promise<LedgerAccountView>;
  confirmSignature(signature: Signature): Promise<SignatureOutcome>;
  /** The RPC answers a block-height read within `timeoutMs` (readiness: polled, so one cheap call). */
  isReachable(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}
