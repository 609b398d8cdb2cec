import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentTransactionResource,
  ApproveAgentTransaction,
  contextFrom,
  type Envelope,
  fail,
  ok,
  RejectAgentTransaction,
  type RequestOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { UnitOfWork } from '@cts/persistence';
import {
  DECISION_MESSAGES,
  type Decision,
  type DecisionRefusal,
  judgeDecision,
  toResource,
} from '../transactions/agent-transaction.domain';
import { AgentTransactionRepository } from '../transactions/agent-transaction.repository';
import { Transitions } from '../transactions/transitions';
import { Reservations } from './reservations';
import { Settlement } from './settlement';

type DecisionRequest = RequestOf<typeof ApproveAgentTransaction>;

/** What the decision's transaction did, as stored in the inbox for a redelivered command. */
interface DecisionStep {
  refused: DecisionRefusal | null;
  /** This command found the window passed while the transaction was pending, and expired it. */
  expired: boolean;
}

/**
 * Approve and reject (spec §3.2, §4.3). The decision commits first — row lock, conditional move out of
 * `pending_approval`, event in the outbox — and only then does the slow part (the transfer, the
 * release), so a racing approve, reject or expiry waits on the lock and then sees the result.
 */
@Injectable()
export class DecisionHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly transactions: AgentTransactionRepository,
    private readonly transitions: Transitions,
    private readonly settlement: Settlement,
    private readonly reservations: Reservations,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

  @OnCommand(ApproveAgentTransaction)
  approve(message: Envelope<DecisionRequest>): Promise<Result<AgentTransactionResource>> {
    return this.decide(message, 'approve');
  }

  @OnCommand(RejectAgentTransaction)
  reject(message: Envelope<DecisionRequest>): Promise<Result<AgentTransactionResource>> {
    return this.decide(message, 'reject');
  }

  private async decide(
    message: Envelope<DecisionRequest>,
    decision: Decision,
  ): Promise<Result<AgentTransactionResource>> {
    const { caller_account_id, environment, transaction_id } = message.payload;
    const context = contextFrom(message);
    const now = new Date();
    const { duplicate, value: step } = await this.unitOfWork.once(
      message,
      this.consumer,
      async (t): Promise<DecisionStep> => {
        const tx = await this.transactions.lockById(transaction_id, t.manager);
        const verdict = judgeDecision(tx, { accountId: caller_account_id, environment }, decision, now);
        if (verdict.outcome === 'refuse') {
          const expired =
            verdict.expire && tx !== null && (await this.transitions.expire(tx.id, now, t, context)) !== null;
          return { refused: verdict.code, expired };
        }
        if (!(await this.transitions.decide(transaction_id, verdict.next, now, t, context))) {
          throw new Error(`${transaction_id} left pending_approval under its row lock`);
        }
        return { refused: null, expired: false };
      },
    );
    const current = await this.transactions.findById(transaction_id);
    if (step.refused !== null) {
      if (step.expired && !duplicate && current) {
        await this.reservations.release(current, context);
      }
      return fail(step.refused, DECISION_MESSAGES[step.refused]);
    }
    if (!current) {
      throw new Error(`${transaction_id} vanished after its decision`);
    }
    if (duplicate) {
      // A redelivered command: the first delivery did (or its follow-up will do) the rest.
      return ok(toResource(current));
    }
    if (current.state === 'approving') {
      return ok(toResource(await this.settlement.settle(current, context)));
    }
    await this.reservations.release(current, context);
    return ok(toResource(current));
  }
}
