import {
  type CreateTransfer,
  type ErrorCode,
  internalIdempotencyKey,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { type AgentTransaction } from '../transactions/agent-transaction.domain';

/**
 * The idempotency key of the one transfer an approval may create: a resend returns that transfer. In
 * the internal namespace: an agent sending `Idempotency-Key: approval:<id>` gets a key of its own.
 */
export const settlementIdempotencyKey = (tx: Pick<AgentTransaction, 'id'>): string =>
  internalIdempotencyKey(`approval:${tx.id}`);

export type SettlementOutcome =
  | { kind: 'approved'; transferId: string }
  | { kind: 'failed'; reason: string; transferId: string | null }
  /** No definite answer: the transfer may or may not exist. Ask again with the same idempotency key. */
  | { kind: 'retry'; reason: string };

/**
 * Answers that say nothing about whether the transfer exists: retrying with the same idempotency
 * key is safe and eventually tells. WARNING: never turn one of these into `failed` — the transfer
 * may have settled, and a failed transaction frees its spend reservation.
 */
const INCONCLUSIVE: readonly ErrorCode[] = [
  'service_unavailable',
  'internal_error',
  'idempotency_key_in_use',
  'rate_limited',
];

/** What transfer-service's reply to the approval's CreateTransfer means for the transaction. */
export function settlementOutcome(result: Result<ResponseOf<typeof CreateTransfer>>): SettlementOutcome {
  if (!result.ok) {
    const { code, reason } = result.error;
    if (INCONCLUSIVE.includes(code)) {
      return { kind: 'retry', reason: code };
    }
    return { kind: 'failed', reason: reason ?? code, transferId: null };
  }
  if (result.value.kind === 'held') {
    // The approval skips the threshold: a second hold means transfer-service did not see it as approved.
    return { kind: 'failed', reason: 'held_again', transferId: null };
  }
  const { transfer } = result.value;
  if (transfer.status === 'failed') {
    return {
      kind: 'failed',
      reason: transfer.failure_reason ?? 'transfer_failed',
      transferId: transfer.transfer_id,
    };
  }
  return { kind: 'approved', transferId: transfer.transfer_id };
}

/** When to try a follow-up again after `attempts` tries: doubling from `baseMs`, at most 10 minutes. */
export function followUpDelayMs(attempts: number, baseMs: number): number {
  const cap = 10 * 60_000;
  return Math.min(cap, baseMs * 2 ** Math.min(Math.max(attempts, 0), 16));
}
