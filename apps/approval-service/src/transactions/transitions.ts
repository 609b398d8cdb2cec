import { Inject, Injectable } from '@nestjs/common';
import {
  AgentTransactionApproved,
  AgentTransactionExpired,
  AgentTransactionFailed,
  AgentTransactionPendingApproval,
  AgentTransactionRejected,
  type MessageContext,
} from '@cts/contracts';
import { type Transaction } from '@cts/persistence';
import { APPROVAL_SETTINGS, type ApprovalSettings } from '../approval.settings';
import { type AgentTransaction, toEventPayload } from './agent-transaction.domain';
import { AgentTransactionRepository, type TransactionRecord } from './agent-transaction.repository';

/**
 * Every state change of a held transaction with its event, inside the caller's database transaction
 * (outbox: the event is published only if the change commits). Each move is conditional on the state
 * it leaves, so of two racing moves only one happens and only one event is written; the loser gets null.
 */
@Injectable()
export class Transitions {
  constructor(
    private readonly transactions: AgentTransactionRepository,
    @Inject(APPROVAL_SETTINGS) private readonly settings: ApprovalSettings,
  ) {}

  /** When work started now may be redone by someone else. */
  leaseEnd(now: Date): Date {
    return new Date(now.getTime() + this.settings.followUpLeaseMs);
  }

  async hold(tx: AgentTransaction, t: Transaction, context: MessageContext): Promise<TransactionRecord> {
    const held = await this.transactions.insert(tx, t.manager);
    await t.emit(AgentTransactionPendingApproval, held.id, toEventPayload(held), context);
    return held;
  }

  /** pending_approval → approving (settlement follows, leased) or rejected (a release follows, leased). */
  async decide(
    id: string,
    next: 'approving' | 'rejected',
    now: Date,
    t: Transaction,
    context: MessageContext,
  ): Promise<TransactionRecord | null> {
    const moved = await this.transactions.move(
      id,
      'pending_approval',
      { state: next, decidedAt: now, followUpAt: this.leaseEnd(now) },
      t.manager,
    );
    if (moved) {
      const event = next === 'approving' ? AgentTransactionApproved : AgentTransactionRejected;
      await t.emit(event, moved.id, toEventPayload(moved), context);
    }
    return moved;
  }

  /** pending_approval → expired; the release of its reservation follows, leased. */
  async expire(
    id: string,
    now: Date,
    t: Transaction,
    context: MessageContext,
  ): Promise<TransactionRecord | null> {
    const expired = await this.transactions.move(
      id,
      'pending_approval',
      { state: 'expired', followUpAt: this.leaseEnd(now) },
      t.manager,
    );
    if (expired) {
      await t.emit(AgentTransactionExpired, expired.id, toEventPayload(expired), context);
    }
    return expired;
  }

  /** approving → approved: the transfer exists. `agent.transaction.approved` was emitted at the decision. */
  settled(id: string, transferId: string, t: Transaction): Promise<TransactionRecord | null> {
    return this.transactions.move(
      id,
      'approving',
      { state: 'approved', transferId, followUpAt: null },
      t.manager,
    );
  }

  /** approving → failed; the release of its reservation follows, leased. */
  async failed(
    id: string,
    failure: { reason: string; transferId: string | null },
    now: Date,
    t: Transaction,
    context: MessageContext,
  ): Promise<TransactionRecord | null> {
    const failed = await this.transactions.move(
      id,
      'approving',
      {
        state: 'failed',
        failureReason: failure.reason,
        transferId: failure.transferId,
        followUpAt: this.leaseEnd(now),
        followUpAttempts: 0,
      },
      t.manager,
    );
    if (failed) {
      await t.emit(AgentTransactionFailed, failed.id, toEventPayload(failed), context);
    }
    return failed;
  }
}
