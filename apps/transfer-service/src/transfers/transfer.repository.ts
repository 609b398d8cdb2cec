import { Injectable } from '@nestjs/common';
import { type AssetCode, type Environment, type TransferStatus } from '@cts/contracts';
import { PreparedStatement } from '@cts/persistence';
import { DataSource, type EntityManager, LessThan } from 'typeorm';
import { type TransferRecord } from './transfer.domain';
import { TransferEntity } from './transfer.entity';

const toRecord = (row: TransferEntity): TransferRecord => ({
  ...row,
  environment: row.environment as Environment,
  asset: row.asset as AssetCode,
  status: row.status as TransferStatus,
});

// The hot path's statements as constant SQL (no query builder per transfer; the look-up is planned
// once per connection). Columns in the entity's order; `sender` and `recipient` are JSON text.
const COLUMNS =
  'id, environment, command_id, idempotency_key, api_key_id, sender_account_id, sender, ' +
  'recipient_account_id, recipient, to_text, asset, confidential, status, sealed_amount, ' +
  'sender_encrypted_amount, recipient_encrypted_amount, sender_encrypted_memo, recipient_encrypted_memo, ' +
  'chain_signature, failure_reason, created_at, updated_at, confirmed_at';

const INSERT_TRANSFER =
  `INSERT INTO "transfers"."transfers" (${COLUMNS}) VALUES ` +
  `($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9::jsonb, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)`;

interface TransferRow {
  id: string;
  environment: string;
  command_id: string;
  idempotency_key: string | null;
  api_key_id: string | null;
  sender: TransferRecord['sender'];
  recipient: TransferRecord['recipient'];
  to_text: string;
  asset: string;
  confidential: boolean;
  status: string;
  sealed_amount: string;
  sender_encrypted_amount: string;
  recipient_encrypted_amount: string | null;
  sender_encrypted_memo: string | null;
  recipient_encrypted_memo: string | null;
  chain_signature: string | null;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  confirmed_at: Date | null;
}

const FIND_EXISTING = new PreparedStatement<TransferRow>(
  'transfers.find_existing',
  `SELECT ${COLUMNS} FROM "transfers"."transfers" WHERE command_id = $1 ` +
    `OR (sender_account_id = $2 AND environment = $3 AND idempotency_key = $4) LIMIT 1`,
);

const RECORD_SIGNATURE = new PreparedStatement<never>(
  'transfers.record_signature',
  'UPDATE "transfers"."transfers" SET chain_signature = $2, updated_at = $3 WHERE id = $1',
);

/**
 * `GET /v1/transfers`: one constant statement whose absent filters are nulls. Built by TypeORM, the
 * query and its twenty entities took about a third of transfer-service's CPU per list.
 */
const LIST_FOR_READER = new PreparedStatement<TransferRow>(
  'transfers.list_for_reader',
  `SELECT ${COLUMNS} FROM "transfers"."transfers" ` +
    'WHERE environment = $1 AND (sender_account_id = $2 OR recipient_account_id = $2) ' +
    'AND ($3::text IS NULL OR status = $3) ' +
    'AND ($4::timestamptz IS NULL OR created_at > $4) AND ($5::timestamptz IS NULL OR created_at < $5) ' +
    'ORDER BY created_at DESC, id DESC OFFSET $6 LIMIT $7',
);

const fromRow = (row: TransferRow): TransferRecord => ({
  id: row.id,
  environment: row.environment as Environment,
  commandId: row.command_id,
  idempotencyKey: row.idempotency_key,
  apiKeyId: row.api_key_id,
  sender: row.sender,
  recipient: row.recipient,
  to: row.to_text,
  asset: row.asset as AssetCode,
  confidential: row.confidential,
  status: row.status as TransferStatus,
  sealedAmount: row.sealed_amount,
  senderEncryptedAmount: row.sender_encrypted_amount,
  recipientEncryptedAmount: row.recipient_encrypted_amount,
  senderEncryptedMemo: row.sender_encrypted_memo,
  recipientEncryptedMemo: row.recipient_encrypted_memo,
  chainSignature: row.chain_signature,
  failureReason: row.failure_reason,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  confirmedAt: row.confirmed_at,
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
    return {
      sql: INSERT_TRANSFER,
      parameters: [
        record.id,
        record.environment,
        record.commandId,
        record.idempotencyKey,
        record.apiKeyId,
        record.sender.account_id,
        JSON.stringify(record.sender),
        record.recipient.account_id,
        JSON.stringify(record.recipient),
        record.to,
        record.asset,
        record.confidential,
        record.status,
        record.sealedAmount,
        record.senderEncryptedAmount,
        record.recipientEncryptedAmount,
        record.senderEncryptedMemo,
        record.recipientEncryptedMemo,
        record.chainSignature,
        record.failureReason,
        record.createdAt,
        record.updatedAt,
        record.confirmedAt,
      ],
    };
  }

  /** Before the transaction is sent: a crash after this leaves the reconciler a signature to ask about. */
  async recordSignature(id: string, chainSignature: string): Promise<void> {
    await RECORD_SIGNATURE.run(this.dataSource, [id, chainSignature, new Date()]);
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
    // A null key matches nothing (`= NULL` is never true): then only the envelope id is looked for.
    const [row] = await FIND_EXISTING.run(this.dataSource, [
      commandId,
      senderAccountId,
      environment,
      idempotencyKey,
    ]);
    return row ? fromRow(row) : null;
  }

  /**
   * A transfer the reader sent or received, or one of its agents did (the owner follows an approval
   * or an event to it), in the key's environment.
   */
  async findForReader(
    id: string,
    accountId: string,
    environment: Environment,
  ): Promise<TransferRecord | null> {
    const row = await this.dataSource.manager
      .createQueryBuilder(TransferEntity, 't')
      .where('t.id = :id AND t.environment = :environment', { id, environment })
      .andWhere(
        `(t.sender_account_id = :accountId OR t.recipient_account_id = :accountId
          OR t.sender->'owner'->>'account_id' = :accountId OR t.recipient->'owner'->>'account_id' = :accountId)`,
        { accountId },
      )
      .getOne();
    return row ? toRecord(row) : null;
  }

  /** Newest first; asks one row more than `limit` to tell `has_more`. */
  async list(query: TransferListQuery): Promise<{ transfers: TransferRecord[]; hasMore: boolean }> {
    const rows = await LIST_FOR_READER.run(this.dataSource, [
      query.environment,
      query.accountId,
      query.status ?? null,
      query.from ?? null,
      query.to ?? null,
      query.offset,
      query.limit + 1,
    ]);
    return { transfers: rows.slice(0, query.limit).map(fromRow), hasMore: rows.length > query.limit };
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
