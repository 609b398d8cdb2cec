import { Injectable } from '@nestjs/common';
import { type AssetCode, type Environment, type TransferStatus } from '@cts/contracts';
import { Brackets, DataSource, type EntityManager, LessThan } from 'typeorm';
import { type TransferRecord } from './transfer.domain';
import { TransferEntity } from './transfer.entity';

const toRecord = (row: TransferEntity): TransferRecord => ({
  ...row,
  environment: row.environment as Environment,
  asset: row.asset as AssetCode,
  status: row.status as TransferStatus,
});

export interface TransferListQuery {
  accountId: string;
  environment: Environment;
  limit: number;
  offset: number;
  status?: TransferStatus;
  from?: Date;
  to?: Date;
}

@Injectable()
export class TransferRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The INSERT of a new transfer, for UnitOfWork.insertWithEvent (one statement with its event). */
  insertStatement(record: TransferRecord): { sql: string; parameters: unknown[] } {
    const { sender, recipient, ...columns } = record;
    const [sql, parameters] = this.dataSource
      .createQueryBuilder()
      .insert()
      .into(TransferEntity)
      .values({
        ...columns,
        senderAccountId: sender.account_id,
        recipientAccountId: recipient.account_id,
        sender: () => `'${JSON.stringify(sender).replaceAll("'", "''")}'::jsonb`,
        recipient: () => `'${JSON.stringify(recipient).replaceAll("'", "''")}'::jsonb`,
      })
      .updateEntity(false)
      .getQueryAndParameters();
    return { sql, parameters };
  }

  /** Before the transaction is sent: a crash after this leaves the reconciler a signature to ask about. */
  async recordSignature(id: string, chainSignature: string): Promise<void> {
    await this.dataSource.manager.update(TransferEntity, { id }, { chainSignature, updatedAt: new Date() });
  }

  /**
   * Moves a pending transfer to its outcome; null when it is no longer pending (another replica or
   * the reconciler finished it first). The row stays locked until the surrounding transaction ends,
   * so of two finishers the second waits and then finds nothing pending.
   */
  async finishPending(
    transfer: TransferRecord,
    outcome: Pick<TransferRecord, 'status' | 'chainSignature' | 'failureReason' | 'confirmedAt'>,
    manager: EntityManager,
  ): Promise<TransferRecord | null> {
    const changes = { ...outcome, updatedAt: new Date() };
    const result = await manager
      .createQueryBuilder()
      .update(TransferEntity)
      .set(changes)
      .where('id = :id AND status = :pending', { id: transfer.id, pending: 'pending' })
      .execute();
    // Only the outcome's columns and updated_at change after creation, so the row is now exactly this.
    return result.affected === 1 ? { ...transfer, ...changes } : null;
  }

  /**
   * For UnitOfWork.changeWithEvent: `finished` (a pending transfer with its outcome applied) as one
   * statement. With `total`, the API key's running total moves from `total.from` to `total.to` in
   * the same statement, and neither happens unless both can: the transfer is still pending (its row
   * locked first, as finishPending's transaction does, so the two never deadlock) and the total still
   * reads `from` (compare-and-set: nobody else added to it since).
   */
  finishChange(
    finished: TransferRecord,
    total?: { keyId: string; from: string; to: string },
  ): { with: string; parameters: unknown[] } {
    const set =
      'SET status = $2, chain_signature = $3, failure_reason = $4, confirmed_at = $5, updated_at = $6';
    const parameters: unknown[] = [
      finished.id,
      finished.status,
      finished.chainSignature,
      finished.failureReason,
      finished.confirmedAt,
      finished.updatedAt,
    ];
    if (!total) {
      return {
        with: `changed AS (UPDATE "transfers"."transfers" ${set} WHERE id = $1 AND status = 'pending' RETURNING id)`,
        parameters,
      };
    }
    return {
      with:
        `pending AS (SELECT id FROM "transfers"."transfers" WHERE id = $1 AND status = 'pending' FOR UPDATE), ` +
        `total AS (UPDATE "transfers"."api_key_totals" SET encrypted_usdc_total = $8, updated_at = $6 ` +
        `WHERE key_id = $7 AND encrypted_usdc_total = $9 AND EXISTS (SELECT 1 FROM pending) RETURNING key_id), ` +
        `changed AS (UPDATE "transfers"."transfers" ${set} ` +
        `WHERE id IN (SELECT id FROM pending) AND EXISTS (SELECT 1 FROM total) RETURNING id)`,
      parameters: [...parameters, total.keyId, total.to, total.from],
    };
  }

  async findById(
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TransferRecord | null> {
    const row = await manager.findOneBy(TransferEntity, { id });
    return row ? toRecord(row) : null;
  }

  /** A retried command (same envelope) or request (same Idempotency-Key) finds the first transfer. */
  async findExisting(
    commandId: string,
    senderAccountId: string,
    environment: Environment,
    idempotencyKey: string | null,
  ): Promise<TransferRecord | null> {
    const query = this.dataSource.manager
      .createQueryBuilder(TransferEntity, 't')
      .where('t.command_id = :commandId', { commandId });
    if (idempotencyKey !== null) {
      query.orWhere(
        new Brackets((q) =>
          q
            .where('t.sender_account_id = :senderAccountId', { senderAccountId })
            .andWhere('t.environment = :environment', { environment })
            .andWhere('t.idempotency_key = :idempotencyKey', { idempotencyKey }),
        ),
      );
    }
    const row = await query.getOne();
    return row ? toRecord(row) : null;
  }

  /** Only the reader's own transfers (sent or received) in the key's environment. */
  async findForReader(
    id: string,
    accountId: string,
    environment: Environment,
  ): Promise<TransferRecord | null> {
    const row = await this.dataSource.manager
      .createQueryBuilder(TransferEntity, 't')
      .where('t.id = :id AND t.environment = :environment', { id, environment })
      .andWhere('(t.sender_account_id = :accountId OR t.recipient_account_id = :accountId)', { accountId })
      .getOne();
    return row ? toRecord(row) : null;
  }

  /** Newest first; asks one row more than `limit` to tell `has_more`. */
  async list(query: TransferListQuery): Promise<{ transfers: TransferRecord[]; hasMore: boolean }> {
    const builder = this.dataSource.manager
      .createQueryBuilder(TransferEntity, 't')
      .where('t.environment = :environment', { environment: query.environment })
      .andWhere('(t.sender_account_id = :accountId OR t.recipient_account_id = :accountId)', {
        accountId: query.accountId,
      });
    if (query.status) {
      builder.andWhere('t.status = :status', { status: query.status });
    }
    if (query.from) {
      builder.andWhere('t.created_at > :from', { from: query.from });
    }
    if (query.to) {
      builder.andWhere('t.created_at < :to', { to: query.to });
    }
    const rows = await builder
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .offset(query.offset)
      .limit(query.limit + 1)
      .getMany();
    return { transfers: rows.slice(0, query.limit).map(toRecord), hasMore: rows.length > query.limit };
  }

  /** Pending transfers nobody has touched for `olderThanMs`: candidates for reconciliation. */
  async stalePending(olderThanMs: number, limit = 50): Promise<TransferRecord[]> {
    const rows = await this.dataSource.manager.find(TransferEntity, {
      where: { status: 'pending', updatedAt: LessThan(new Date(Date.now() - olderThanMs)) },
      order: { updatedAt: 'ASC' },
      take: limit,
    });
    return rows.map(toRecord);
  }
}
