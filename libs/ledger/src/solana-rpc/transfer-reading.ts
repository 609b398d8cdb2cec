import { type Address } from '@solana/kit';
import { LedgerError } from '../ledger.errors';
import {
  type ConfidentialTransferReading,
  type ConfidentialTransferRequest,
  type LedgerAccountView,
  type LedgerAsset,
} from '../ledger.port';
import { type ConfidentialTransferJob, type SigningContext } from '../transactions/build-job';
import { readMintAndTokens, requireConfidential, type TokenAccountsSnapshot } from './account-reader';
import { toAccountView } from './account-view';
import { type LedgerRpc } from './ledger-rpc';

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
    private readonly snapshot: TokenAccountsSnapshot,
    private readonly context: SigningContext,
  ) {}

  /** The transfer's job, its proofs built on this reading. */
  job(asset: LedgerAsset, { from, amount }: ConfidentialTransferRequest): ConfidentialTransferJob {
    const { mint, tokens } = this.snapshot;
    if (mint === null) {
      throw new LedgerError('asset_misconfigured', `mint ${asset.mint} of ${asset.code} is missing`);
    }
    const [source, destination] = [this.sourceToken, this.destinationToken];
    return {
      kind: 'confidential-transfer',
      context: this.context,
      keys: from,
      mint: asset.mint,
      mintState: mint,
      source,
      sourceState: requireConfidential(tokens[0] ?? null, { address: source, role: 'source' }),
      destination,
      destinationState: requireConfidential(tokens[1] ?? null, { address: destination, role: 'recipient' }),
      amount,
    };
  }

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

/** The mint and both token accounts, with a blockhash beside: two independent requests, sent together. */
export async function readTransfer(
  rpc: LedgerRpc,
  asset: LedgerAsset,
  { fromOwner, source, destination }: { fromOwner: Address; source: Address; destination: Address },
  signingContext: Promise<SigningContext>,
  abortSignal: AbortSignal,
): Promise<TransferReading> {
  const [snapshot, context] = await Promise.all([
    readMintAndTokens(rpc, asset.mint, [source, destination], abortSignal),
    signingContext,
  ]);
  const sourceView = toAccountView(
    { owner: fromOwner, asset: asset.code, tokenAccount: source },
    snapshot.tokens[0] ?? null,
  );
  return new TransferReading(sourceView, source, destination, snapshot, context);
}
