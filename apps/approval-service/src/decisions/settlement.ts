import { Injectable, Logger } from '@nestjs/common';
import { CreateTransfer, hasPrefix, type MessageContext } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { UnitOfWork } from '@cts/persistence';
import {
  AgentTransactionRepository,
  type TransactionRecord,
} from '../transactions/agent-transaction.repository';
import { Transitions } from '../transactions/transitions';
import { Reservations } from './reservations';
import { settlementIdempotencyKey, settlementOutcome } from './settlement.domain';

/**
 * Turns an approved (`approving`) transaction into the agent's transfer: one CreateTransfer, always
 * with the same idempotency key and the reserved transfer id, so a resend after a crash or an
 * inconclusive reply gets the same transfer back and money moves at most once.
 */
@Injectable()
export class Settlement {
  private readonly logger = new Logger(Settlement.name);

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly commands: CommandBus,
    private readonly transactions: AgentTransactionRepository,
    private readonly transitions: Transitions,
    private readonly reservations: Reservations,
  ) {}

  /** Settles `tx` (which must be `approving`) and returns it as it is afterwards. */
  async settle(tx: TransactionRecord, context: MessageContext): Promise<TransactionRecord> {
    if (hasPrefix(tx.reservationId, 'x402')) {
      return this.approvePayment(tx);
    }
    const reply = await this.commands.send(
      CreateTransfer,
      {
        account_id: tx.agent.account_id,
        environment: tx.environment,
        api_key_id: tx.apiKeyId,
        to: tx.to,
        asset: tx.asset,
        confidential: tx.confidential,
        sealed_amount: tx.sealedAmount,
        sealed_memo: tx.sealedMemo,
        idempotency_key: settlementIdempotencyKey(tx),
        approved_transfer_id: tx.reservationId,
      },
      context,
    );
    const outcome = settlementOutcome(reply);
    if (outcome.kind === 'retry') {
      // Left `approving` with its follow-up lease: the sweeper asks again once the lease ends.
      this.logger.warn(
        `the transfer of approved ${tx.id} is not confirmed yet (${outcome.reason}); retrying later`,
      );
      return (await this.transactions.findById(tx.id)) ?? tx;
    }
    const finished = await this.unitOfWork.run((t) =>
      outcome.kind === 'approved'
        ? this.transitions.settled(tx.id, outcome.transferId, t)
        : this.transitions.failed(tx.id, outcome, new Date(), t, context),
    );
    if (finished?.state === 'failed') {
      await this.reservations.release(finished, context);
    }
    // null: another replica finished it first; either way the stored state is the answer.
    return (await this.transactions.findById(tx.id)) ?? finished ?? tx;
  }

  /**
   * A held x402 payment (issue 20) is not a transfer: the agent signs it itself when it pays the
   * resource again with `approved_transaction_id` (transfer-service re-checks the policy then, except
   * the threshold). The approval names the payment id (`transfer_id`) it allows.
   */
  private async approvePayment(tx: TransactionRecord): Promise<TransactionRecord> {
    const finished = await this.unitOfWork.run((t) => this.transitions.settled(tx.id, tx.reservationId, t));
    return (await this.transactions.findById(tx.id)) ?? finished ?? tx;
  }
}
