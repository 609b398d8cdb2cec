import {
  type AccountParty,
  type AssetCode,
  fail,
  ok,
  type ResolveParties,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { formatAmount } from '@cts/crypto';
import { assetDecimals } from './assets';
import { type TransferRecord } from './transfer.domain';

/** The rules of moving money, without I/O: the handlers ask the ledger and the peers, these decide. */

type Recipient = ResponseOf<typeof ResolveParties>['recipient'];

/**
 * An amount the ledger can carry: positive and at most `max` base units (a confidential transfer
 * proves its amount in 48 bits). `null` is an amount that could not be opened: the same refusal.
 */
export function checkAmount(amount: bigint | null, asset: AssetCode, max: bigint): Result<bigint> {
  if (amount !== null && amount > 0n && amount <= max) {
    return ok(amount);
  }
  return fail(
    'invalid_request',
    `amount must be positive and at most ${formatAmount(max, assetDecimals(asset))} ${asset}`,
    {
      param: 'amount',
    },
  );
}

/** Sending to yourself, by account or by your own address, moves nothing: refused. */
export function selfSendRefusal(sender: AccountParty, recipient: Recipient): Result<never> | null {
  const same =
    (recipient.kind === 'account' && recipient.account_id === sender.account_id) ||
    recipient.address === sender.address;
  return same ? fail('invalid_request', 'An account cannot send to itself', { param: 'to' }) : null;
}

/**
 * Whether the ledger must be asked about the recipient first: only an address outside the service can
 * lack a confidential balance (accounts of the service are all opened confidential at creation).
 */
export function needsConfidentialRecipientCheck(recipient: Recipient, confidential: boolean): boolean {
  return recipient.kind === 'external' && confidential;
}

/** A confidential transfer to an address with no confidential balance for the asset cannot land. */
export function recipientReadinessRefusal(confidentialReady: boolean): Result<never> | null {
  return confidentialReady
    ? null
    : fail(
        'recipient_not_confidential_ready',
        'The recipient has no confidential balance for this asset; retry with "confidential": false to send a standard transfer',
        { param: 'to' },
      );
}

/** Ledger errors raised before anything was sent, or that say the transaction failed for good. */
const DEFINITE_FAILURES: ReadonlySet<string> = new Set([
  'insufficient_funds_onchain',
  'account_not_found',
  'account_not_confidential',
  'pending_balance_race',
  'transaction_failed',
  'invalid_amount',
  'unknown_asset',
]);

export type LedgerFailure = { kind: 'failed'; reason: string } | { kind: 'undetermined' };

/**
 * What a ledger error during settlement means. Before the transaction was signed, or for an error that
 * says it failed for good, the transfer has failed (with the reason a client sees). Anything else after
 * it was sent (timeout, lost connection) may still land: undetermined, the reconciler decides later.
 */
export function classifyLedgerFailure(errorCode: string, signed: boolean): LedgerFailure {
  if (signed && !DEFINITE_FAILURES.has(errorCode)) {
    return { kind: 'undetermined' };
  }
  return {
    kind: 'failed',
    reason: errorCode === 'insufficient_funds_onchain' ? 'insufficient_balance' : errorCode,
  };
}

/**
 * The amount an event may carry: only a standard (`confidential: false`) transfer's, which is public on
 * the ledger anyway. A confidential transfer's amount never leaves transfer-service in plaintext.
 */
export function publicAmountOf(
  transfer: Pick<TransferRecord, 'confidential' | 'asset'>,
  amount: bigint,
): string | undefined {
  return transfer.confidential ? undefined : formatAmount(amount, assetDecimals(transfer.asset));
}
