import { type Address, type Base64EncodedWireTransaction, type Signature } from '@solana/kit';
import { type Mint, type Token } from '@solana-program/token-2022';
import { type AccountKeyMaterial } from '../ledger.port';

/** Rent is linear in the account size on Solana: base + size * perByte. */
export interface RentSchedule {
  baseLamports: bigint;
  lamportsPerByte: bigint;
}

/** Everything a builder needs besides account keys; plain data so it can cross a worker boundary. */
export interface SigningContext {
  feePayerSeed: Uint8Array;
  blockhash: string;
  lastValidBlockHeight: bigint;
  rent: RentSchedule;
}

interface JobBase {
  context: SigningContext;
  keys: AccountKeyMaterial;
}

export interface ConfigureAccountsJob extends JobBase {
  kind: 'configure-accounts';
  mints: Address[];
}

export interface FundJob extends JobBase {
  kind: 'fund';
  mintAuthoritySeed: Uint8Array;
  mint: Address;
  decimals: number;
  token: Address;
  tokenState: Token;
  amount: bigint;
}

export interface ConfidentialTransferJob extends JobBase {
  kind: 'confidential-transfer';
  mint: Address;
  mintState: Mint;
  source: Address;
  sourceState: Token;
  destination: Address;
  destinationState: Token;
  amount: bigint;
}

export interface WithdrawAndPayJob extends JobBase {
  kind: 'withdraw-and-pay';
  mint: Address;
  decimals: number;
  source: Address;
  sourceState: Token;
  /** Part of `amount` that must first leave the confidential balance (the rest is already public). */
  withdrawAmount: bigint;
  recipientOwner: Address;
  recipientToken: Address;
  amount: bigint;
}

/** Confidential available balance → the same account's public balance (an x402 payment pays from there). */
export interface WithdrawJob extends JobBase {
  kind: 'withdraw';
  mint: Address;
  decimals: number;
  source: Address;
  sourceState: Token;
  withdrawAmount: bigint;
}

export interface ApplyPendingJob extends JobBase {
  kind: 'apply-pending';
  token: Address;
  tokenState: Token;
  /** Public base units deposited first, in the same transaction (0: none). */
  depositAmount: bigint;
  mint: Address;
  decimals: number;
}

export type BuildJob =
  | ConfigureAccountsJob
  | FundJob
  | ConfidentialTransferJob
  | WithdrawAndPayJob
  | WithdrawJob
  | ApplyPendingJob;

export interface SignedTransaction {
  wire: Base64EncodedWireTransaction;
  signature: Signature;
}

/** Signed transactions, to be sent in order, each confirmed before the next. */
export interface SignedTransactionPlan {
  transactions: SignedTransaction[];
  /** Index of the transaction that moves the funds: its signature is the operation's signature. */
  primaryIndex: number;
  /**
   * The transactions (by index) that may be sent together, stage after stage: a stage is sent once
   * every transaction of the stage before it is confirmed (the proof context accounts, created side
   * by side, before the transfer that reads them, then their cleanup).
   */
  stages: number[][];
}
