import { Inject, Injectable } from '@nestjs/common';
import {
  contextFrom,
  type Envelope,
  fail,
  type HeldTransaction,
  HoldAgentTransaction,
  ListPendingApprovals,
  newId,
  ok,
  type PendingApprovalList,
  type RequestOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { isUniqueViolation, UnitOfWork } from '@cts/persistence';
import { holdFrom, holdRefusal, toHeld, toPendingItem } from '../transactions/agent-transaction.domain';
import { AgentTransactionRepository } from '../transactions/agent-transaction.repository';
import { Transitions } from '../transactions/transitions';

type HoldRequest = RequestOf<typeof HoldAgentTransaction>;

/** The owner's queue: transfer-service puts held agent transactions in, the owner lists them. */
@Injectable()
export class HoldHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly transactions: AgentTransactionRepository,
    private readonly transitions: Transitions,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

  /**
   * Once per message (inbox) and once per reservation (unique index): a redelivered or repeated hold
   * answers with the first transaction and emits nothing more.
   */
  @OnCommand(HoldAgentTransaction)
  async hold(message: Envelope<HoldRequest>): Promise<Result<HeldTransaction>> {
    const request = message.payload;
    try {
      const { value } = await this.unitOfWork.once(message, this.consumer, async (t) => {
        const existing = await this.transactions.findByReservation(request.reservation_id, t.manager);
        const refused = holdRefusal(request, existing);
        if (refused) {
          return fail('invalid_request', refused.message, refused.param ? { param: refused.param } : {});
        }
        if (existing) {
          return ok(toHeld(existing));
        }
        const held = await this.transitions.hold(holdFrom(request, newId('atx')), t, contextFrom(message));
        return ok(toHeld(held));
      });
      return value;
    } catch (error) {
      if (isUniqueViolation(error)) {
        // The same reservation raced in under another message id: answer with the winner.
        const first = await this.transactions.findByReservation(request.reservation_id);
        if (first && !holdRefusal(request, first)) {
          return ok(toHeld(first));
        }
      }
      throw error;
    }
  }

  @OnCommand(ListPendingApprovals)
  async listPending(
    message: Envelope<RequestOf<typeof ListPendingApprovals>>,
  ): Promise<Result<PendingApprovalList>> {
    const { owner_account_id, environment } = message.payload;
    const pending = await this.transactions.listAwaitingDecision(owner_account_id, environment, new Date());
    return ok({ pending: pending.map(toPendingItem) });
  }
}
