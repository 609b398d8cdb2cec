import { Injectable } from '@nestjs/common';
import { type AgentTransactionStatus, type AssetCode, type Environment } from '@cts/contracts';
import { DataSource, type EntityManager, LessThanOrEqual, MoreThan } from 'typeorm';
import { type AgentTransaction, type AgentTransactionState } from './agent-transaction.domain';
import { AgentTransactionEntity } from './agent-transaction.entity';

/** A transaction with the bookkeeping of the work left after its last commit. */
export interface TransactionRecord extends AgentTransaction {
  followUpAt: Date | null;
  followUpAttempts: number;
  reservationReleasedAt: Date | null;
}

export type TransactionPatch = Partial<
  Pick<
    TransactionRecord,
    | 'state'
    | 'decidedAt'
    | 'transferId'
    | 'failureReason'
    | 'followUpAt'
    | 'followUpAttempts'
    | 'reservationReleasedAt'
  >
>;

const toRecord = (row: AgentTransactionEntity): TransactionRecord => ({
  id: row.id,
  environment: row.environment as Environment,
  agent: { account_id: row.agentAccountId, handle: row.agentHandle },
  owner: { account_id: row.ownerAccountId, handle: row.ownerHandle },
  to: row.recipient,
  asset: row.asset as AssetCode,
  confidential: row.confidential,
  sealedAmount: row.sealedAmount,
  sealedMemo: row.sealedMemo,
  apiKeyId: row.apiKeyId,
  reservationId: row.reservationId,
  ownerEncryptedAmount: row.ownerEncryptedAmount,
  state: row.status as AgentTransactionState,
  requestedAt: row.requestedAt,
  expiresAt: row.expiresAt,
  decidedAt: row.decidedAt,
  transferId: row.transferId,
  failureReason: row.failureReason,
  x402:
    row.x402PayTo === null || row.x402Resource === null
      ? null
      : { pay_to: row.x402PayTo, resource: row.x402Resource },
  followUpAt: row.followUpAt,
  followUpAttempts: row.followUpAttempts,
  reservationReleasedAt: row.reservationReleasedAt,
});

const toColumns = (patch: TransactionPatch): Partial<AgentTransactionEntity> => {
  const { state, ...rest } = patch;
  return { ...rest, ...(state === undefined ? {} : { status: state }) };
};

/** The `approvals.agent_transactions` table. Ciphertexts pass through it unopened. */
@Injectable()
export class AgentTransactionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(tx: AgentTransaction, manager: EntityManager): Promise<TransactionRecord> {
    const row = manager.create(AgentTransactionEntity, {
      id: tx.id,
      environment: tx.environment,
      agentAccountId: tx.agent.account_id,
      agentHandle: tx.agent.handle,
      ownerAccountId: tx.owner.account_id,
      ownerHandle: tx.owner.handle,
      recipient: tx.to,
      asset: tx.asset,
      confidential: tx.confidential,
      sealedAmount: tx.sealedAmount,
      sealedMemo: tx.sealedMemo,
      apiKeyId: tx.apiKeyId,
      reservationId: tx.reservationId,
      ownerEncryptedAmount: tx.ownerEncryptedAmount,
      status: tx.state,
      requestedAt: tx.requestedAt,
      expiresAt: tx.expiresAt,
      decidedAt: tx.decidedAt,
      transferId: tx.transferId,
      failureReason: tx.failureReason,
      x402PayTo: tx.x402?.pay_to ?? null,
      x402Resource: tx.x402?.resource ?? null,
      followUpAt: null,
      followUpAttempts: 0,
      reservationReleasedAt: null,
    });
    await manager.insert(AgentTransactionEntity, row);
    return toRecord(row);
  }

  async findById(
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TransactionRecord | null> {
    const row = await manager.findOneBy(AgentTransactionEntity, { id });
    return row ? toRecord(row) : null;
  }

  /**
   * The row under `SELECT … FOR UPDATE`. WARNING: every decision and expiry of one transaction takes
   * this lock (or skips a locked row), so of racing approve, reject and expiry only one sees it pending.
   */
  async lockById(id: string, manager: EntityManager): Promise<TransactionRecord | null> {
    const row = await manager.findOne(AgentTransactionEntity, {
      where: { id },
      lock: { mode: 'pessimistic_write' },
    });
    return row ? toRecord(row) : null;
  }

  async findByReservation(
    reservationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TransactionRecord | null> {
    const row = await manager.findOneBy(AgentTransactionEntity, { reservationId });
    return row ? toRecord(row) : null;
  }

  /** The owner's transactions still awaiting a decision at `now`, soonest-expiring first. */
  async listAwaitingDecision(
    ownerAccountId: string,
    environment: Environment,
    now: Date,
  ): Promise<TransactionRecord[]> {
    const rows = await this.dataSource.manager.find(AgentTransactionEntity, {
      where: { ownerAccountId, environment, status: 'pending_approval', expiresAt: MoreThan(now) },
      order: { expiresAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toRecord);
  }

  /**
   * An agent's transactions in one environment, newest first (ids sort by creation), at most `limit`,
   * after the cursor `startingAfter` when given. `status` filters as readers see it at `now`: a pending
   * transaction past its window is `expired`, one whose approval is settling is `approved`.
   */
  async listForAgent(query: {
    agentAccountId: string;
    environment: Environment;
    status?: AgentTransactionStatus;
    startingAfter?: string;
    limit: number;
    now: Date;
  }): Promise<TransactionRecord[]> {
    const builder = this.dataSource.manager
      .createQueryBuilder(AgentTransactionEntity, 't')
      .where('t.agent_account_id = :agent', { agent: query.agentAccountId })
      .andWhere('t.environment = :environment', { environment: query.environment })
      .orderBy('t.id', 'DESC')
      .take(query.limit);
    if (query.startingAfter !== undefined) {
      builder.andWhere('t.id < :cursor', { cursor: query.startingAfter });
    }
    const now = query.now;
    switch (query.status) {
      case undefined:
        break;
      case 'pending_approval':
        builder.andWhere("t.status = 'pending_approval' AND t.expires_at > :now", { now });
        break;
      case 'expired':
        builder.andWhere(
          "(t.status = 'expired' OR (t.status = 'pending_approval' AND t.expires_at <= :now))",
          { now },
        );
        break;
      case 'approved':
        builder.andWhere("t.status IN ('approved', 'approving')");
        break;
      default:
        builder.andWhere('t.status = :status', { status: query.status });
    }
    return (await builder.getMany()).map(toRecord);
  }

  /**
   * Moves the transaction only if it is still in `from` (a conditional UPDATE): null when another
   * replica or request moved it first.
   */
  async move(
    id: string,
    from: AgentTransactionState,
    patch: TransactionPatch,
    manager: EntityManager,
  ): Promise<TransactionRecord | null> {
    const result = await manager.update(AgentTransactionEntity, { id, status: from }, toColumns(patch));
    return result.affected ? this.findById(id, manager) : null;
  }

  async patch(
    id: string,
    patch: TransactionPatch,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(AgentTransactionEntity, { id }, toColumns(patch));
  }

  /** Pending transactions whose window has passed, locked; rows another replica holds are skipped. */
  async claimOverdue(now: Date, limit: number, manager: EntityManager): Promise<TransactionRecord[]> {
    const rows = await manager.find(AgentTransactionEntity, {
      where: { status: 'pending_approval', expiresAt: LessThanOrEqual(now) },
      order: { expiresAt: 'ASC', id: 'ASC' },
      take: limit,
      lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' },
    });
    return rows.map(toRecord);
  }

  /** Transactions with follow-up work due, locked; rows another replica holds are skipped. */
  async claimFollowUps(now: Date, limit: number, manager: EntityManager): Promise<TransactionRecord[]> {
    const rows = await manager.find(AgentTransactionEntity, {
      where: { followUpAt: LessThanOrEqual(now) },
      order: { followUpAt: 'ASC', id: 'ASC' },
      take: limit,
      lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' },
    });
    return rows.map(toRecord);
  }
}
