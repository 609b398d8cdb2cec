import { type Address } from '@solana/kit';
import { type ConfidentialTransferReading, type LedgerAccountView } from '../ledger.port';
import { type SigningContext } from '../transactions/build-job';
import { type TokenAccountsSnapshot } from './account-reader';

/**
 * How long a reading may stand in for the transfer's own read. The caller's lock keeps the source
 * unchanged; this bounds the blockhash's age, which a cluster accepts for about a minute.
 */
const FRESH_FOR_MS = 5_000;

/** A reading made by this adapter: the source's view, and the mint, both token accounts and a blockhash. */
export class TransferReading implements ConfidentialTransferReading {
  private readonly readAt = performance.now();

  constructor(
    readonly source: LedgerAccountView,
    private readonly sourceToken: Address,
    private readonly destinationToken: Address,
    readonly snapshot: TokenAccountsSnapshot,
    readonly context: SigningContext,
  ) {}

  /** The reading, if it is one of ours, for these two accounts, and fresh; undefined otherwise. */
  static usable(
    reading: ConfidentialTransferReading | undefined,
    sourceToken: Address,
    destinationToken: Address,
  ): TransferReading | undefined {
    return reading instanceof TransferReading &&
      reading.sourceToken === sourceToken &&
      reading.destinationToken === destinationToken &&
      performance.now() - reading.readAt < FRESH_FOR_MS
      ? reading
      : undefined;
  }
}
