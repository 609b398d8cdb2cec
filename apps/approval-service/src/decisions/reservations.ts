import { Injectable, Logger } from '@nestjs/common';
import { type MessageContext, ReleaseSpendReservation } from '@cts/contracts';
import { CommandBus, withFreshDeadline } from '@cts/messaging';
import { releasesReservation } from '../transactions/agent-transaction.domain';
import {
  AgentTransactionRepository,
  type TransactionRecord,
} from '../transactions/agent-transaction.repository';

/**
 * Frees the spend reservation of a transaction that ended without a transfer, after the commit that
 * ended it. The commit left `follow_up_at` set, so a release that fails here (or a crash before it)
 * is retried by the sweeper; agent-policy-service makes a second release a no-op.
 */
@Injectable()
export class Reservations {
  private readonly logger = new Logger(Reservations.name);

  constructor(
    private readonly commands: CommandBus,
    private readonly transactions: AgentTransactionRepository,
  ) {}

  async release(tx: TransactionRecord, context: MessageContext): Promise<boolean> {
    if (!releasesReservation(tx.state) || tx.reservationReleasedAt !== null) {
      return true;
    }
    const released = await this.commands.send(
      ReleaseSpendReservation,
      { reservation_id: tx.reservationId },
      // A compensation: not bound to the deadline of the decision that caused it.
      withFreshDeadline(context),
    );
    if (!released.ok) {
      this.logger.warn(
        `releasing the reservation of ${tx.id} failed (${released.error.code}); the sweeper retries`,
      );
      return false;
    }
    await this.transactions.patch(tx.id, { reservationReleasedAt: new Date(), followUpAt: null });
    return true;
  }
}
