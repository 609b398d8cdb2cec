import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { amountSealingContext, type EnvelopeMeta, contextFrom, type MessageContext } from '@cts/contracts';
import { RUNTIME, type Runtime } from '@cts/runtime';
import { type SealingKey, unsealAmount } from '@cts/crypto';
import { type Signature } from '@solana/kit';
import { Ledgers } from '../ledger/ledgers';
import { AccountLocks, accountLockKey } from '../locks/account-locks';
import { reconcileOutcome, type TransferRecord } from './transfer.domain';
import { Settlement } from './settlement';
import { TransferRepository } from './transfer.repository';
import { DATA_KEY } from '../sealing/data-key';

/**
 * Finishes transfers a crash left `pending`: a sweep of stale ones on every replica (each takes the
 * sender's lock without waiting, so replicas never work on the same transfer), and at once when a
 * retried request or redelivered command finds its transfer still pending.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Reconciler.name);
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(
    private readonly transfers: TransferRepository,
    private readonly settlement: Settlement,
    private readonly ledgers: Ledgers,
    private readonly locks: AccountLocks,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    @Inject(DATA_KEY) private readonly dataKey: SealingKey,
  ) {}

  onApplicationBootstrap(): void {
    const every = Math.min(5000, Math.max(200, Math.floor(this.runtime.config.RECONCILE_AFTER_MS / 2)));
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => (this.sweeping = null));
    }, every);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) {
      clearInterval(this.timer);
    }
    await this.sweeping;
  }

  async sweep(): Promise<void> {
    try {
      for (const transfer of await this.transfers.stalePending(this.runtime.config.RECONCILE_AFTER_MS)) {
        await this.locks.tryRun(lockOf(transfer), () => this.reconcile(transfer, reconcileContext(transfer)));
      }
    } catch (error) {
      this.logger.error(
        `reconciliation sweep failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Waits for any settlement in flight, then finishes the transfer if the ledger can tell. */
  async settleNow(transfer: TransferRecord, cause: EnvelopeMeta): Promise<TransferRecord> {
    if (transfer.status !== 'pending') {
      return transfer;
    }
    return this.locks.run(lockOf(transfer), () => this.reconcile(transfer, contextFrom(cause)));
  }

  private async reconcile(transfer: TransferRecord, context: MessageContext): Promise<TransferRecord> {
    const current = (await this.transfers.findById(transfer.id)) ?? transfer;
    if (current.status !== 'pending') {
      return current;
    }
    const ledger = await this.ledgers.of(current.environment);
    const ledgerSays = current.chainSignature
      ? await ledger.confirmSignature(current.chainSignature as Signature)
      : 'unknown';
    const outcome = reconcileOutcome(
      current.chainSignature,
      ledgerSays,
      Date.now() - current.updatedAt.getTime(),
      this.runtime.config.RECONCILE_GIVE_UP_MS,
    );
    if (outcome === 'wait') {
      return current;
    }
    const amount = unsealAmount(
      this.dataKey,
      current.sealedAmount,
      amountSealingContext(current.sender.account_id),
    );
    this.logger.log(`reconciled ${current.id}: ${outcome.status}`);
    return this.settlement.finish(current, outcome, amount, context);
  }
}

const lockOf = (transfer: TransferRecord) =>
  accountLockKey(transfer.sender.account_id, transfer.environment, transfer.asset);

function reconcileContext(transfer: TransferRecord): MessageContext {
  return {
    correlationId: `reconcile_${transfer.id}`,
    causationId: null,
    environment: transfer.environment,
    accountId: transfer.sender.account_id,
  };
}
