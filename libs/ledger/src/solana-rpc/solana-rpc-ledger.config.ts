import { type LedgerAsset, type LedgerEnvironment } from '../ledger.port';
import { type ProofPool } from '../proof-pool/proof-pool';
import { type LedgerRpc, type LedgerTimeouts } from './ledger-rpc';
import { type OrderedSender } from './ordered-sender';

export interface SolanaRpcLedgerConfig {
  /** `createSolanaRpc(url)` for a cluster or the local ledger's HTTP URL, or the in-process runtime's (`connectInProcess`). */
  rpc: LedgerRpc;
  environment: LedgerEnvironment;
  /** The asset registry of this environment: confidential-capable Token-2022 mints. */
  assets: LedgerAsset[];
  /** Pays fees and rent for every transaction. */
  feePayerSeed: Uint8Array;
  /** Test ledgers only: lets fundTestAccount mint. */
  mintAuthoritySeed?: Uint8Array;
  /** Shared pool; when omitted the ledger starts its own and closes it with itself. */
  proofPool?: ProofPool;
  timeouts?: Partial<LedgerTimeouts>;
  /** How long confidential transfers share one blockhash; default TRANSFER_BLOCKHASH_REUSE_MS (one slot). */
  transferBlockhashReuseMs?: number;
  /**
   * The node executes a transaction before it answers the send, and refuses one whose preflight
   * fails (the local ledger): a signature it returns has landed, so no status poll follows. A
   * cluster answers before the transaction lands: leave this unset.
   */
  landsOnSend?: boolean;
  /**
   * With `landsOnSend`: the node also runs a JSON-RPC batch in order (the local ledger), so a plan's
   * stages go in one request instead of one per stage.
   */
  sendInOrder?: OrderedSender;
}

/**
 * How long a confidential transfer may reuse the blockhash another one fetched: one slot. A cluster
 * accepts a blockhash for 150 slots, and transactions built within one slot shared it anyway; a
 * transfer's transactions are never identical to another's (each creates new proof accounts).
 */
export const TRANSFER_BLOCKHASH_REUSE_MS = 400;
