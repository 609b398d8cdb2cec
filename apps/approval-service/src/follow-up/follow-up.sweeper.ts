import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { type MessageContext } from '@cts/contracts';
import { UnitOfWork } from '@cts/persistence';
import { APPROVAL_SETTINGS, type ApprovalSettings } from '../approval.settings';
import { Reservations } from '../decisions/reservations';
import { Settlement } from '../decisions/settlement';
import { followUpDelayMs } from '../decisions/settlement.domain';
import { releasesReservation } from '../transactions/agent-transaction.domain';
import {
  AgentTransactionRepository,
  type TransactionRecord,
} from '../transactions/agent-transaction.repository';
import { Transitions } from '../transactions/transitions';

export interface SweepReport {
  /** Transactions this sweep moved to `expired`. */
  expired: number;
  /** Follow-ups (settlements, releases) this sweep took over. */
  followedUp: number;
}

/** Messages the sweeper causes belong to no request: their correlation id names the transaction. */
const sweepContext = (tx: TransactionRecord): MessageContext => ({
  correlationId: `approval-sweep:${tx.id}`,
  causationId: null,
  environment: tx.environment,
  accountId: tx.owner.account_id,
});

/**
 * Every few seconds on every replica (and once at start): expires overdue holds, then finishes work
 * a commit left behind — a settlement without an answer (crash, timeout) or a reservation not yet
 * released. Rows are claimed with `FOR UPDATE SKIP LOCKED` and the expiry itself is a conditional
 * move, so replicas share the work and never do one transaction twice.
 */
@Injectable()
export class FollowUpSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(FollowUpSweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly transactions: AgentTransactionRepository,
    private readonly transitions: Transitions,
    private readonly settlement: Settlement,
    private readonly reservations: Reservations,
    @Inject(APPROVAL_SETTINGS) private readonly settings: ApprovalSettings,
  ) {}

  onApplicationBootstrap(): void {
    // At once, not on the first tick: a replica that crashed mid-settlement is finished on restart.
    this.tick();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Resolves when the sweep in progress (if any) is over. */
  async idle(): Promise<void> {
    await this.running;
  }

  async sweepOnce(now: Date = new Date()): Promise<SweepReport> {
    const expired = await this.expireOverdue(now);
    const followedUp = await this.followUp(now);
    return { expired, followedUp };
  }

  private tick(): void {
    this.running = this.sweepOnce()
      .then(
        () => undefined,
        (error: unknown) => this.logger.error(`approval sweep failed, retrying: ${String(error)}`),
      )
      .finally(() => {
        this.running = undefined;
        if (!this.stopped) {
          this.timer = setTimeout(() => this.tick(), this.settings.sweepIntervalMs);
          this.timer.unref();
        }
      });
  }

  private async expireOverdue(now: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const { expired, full } = await this.unitOfWork.run(async (t) => {
        const due = await this.transactions.claimOverdue(now, this.settings.batchSize, t.manager);
        const moved: TransactionRecord[] = [];
        for (const tx of due) {
          const done = await this.transitions.expire(tx.id, now, t, sweepContext(tx));
          if (done) {
            moved.push(done);
          }
        }
        return { expired: moved, full: due.length === this.settings.batchSize };
      });
      for (const tx of expired) {
        await this.reservations.release(tx, sweepContext(tx));
      }
      total += expired.length;
      if (!full || this.stopped) {
        return total;
      }
    }
  }

  private async followUp(now: Date): Promise<number> {
    const claimed = await this.unitOfWork.run(async (t) => {
      const due = await this.transactions.claimFollowUps(now, this.settings.batchSize, t.manager);
      for (const tx of due) {
        // Take the lease: nobody else redoes this until it ends (and later tries back off).
        const next = new Date(
          now.getTime() + followUpDelayMs(tx.followUpAttempts, this.settings.followUpLeaseMs),
        );
        await this.transactions.patch(
          tx.id,
          { followUpAt: next, followUpAttempts: tx.followUpAttempts + 1 },
          t.manager,
        );
      }
      return due;
    });
    for (const tx of claimed) {
      try {
        await this.finish(tx);
      } catch (error) {
        this.logger.error(`follow-up of ${tx.id} failed, retrying later: ${String(error)}`);
      }
    }
    return claimed.length;
  }

  private async finish(tx: TransactionRecord): Promise<void> {
    if (tx.state === 'approving') {
      this.logger.warn(`resuming the settlement of approved ${tx.id} (attempt ${tx.followUpAttempts + 1})`);
      await this.settlement.settle(tx, sweepContext(tx));
    } else if (releasesReservation(tx.state) && tx.reservationReleasedAt === null) {
      await this.reservations.release(tx, sweepContext(tx));
    } else {
      await this.transactions.patch(tx.id, { followUpAt: null });
    }
  }
}
