import { Injectable } from '@nestjs/common';
import { type AssetCode, type Environment } from '@cts/contracts';
import { DataSource, type EntityManager, MoreThan } from 'typeorm';
import { UNSETTLED_WINDOW_MS, type X402PaymentRecord } from './x402-payment.domain';
import { X402PaymentEntity } from './x402-payment.entity';

const toRecord = (row: X402PaymentEntity): X402PaymentRecord => ({
  ...row,
  environment: row.environment as Environment,
  asset: row.asset as AssetCode,
  status: row.status as X402PaymentRecord['status'],
});

@Injectable()
export class X402PaymentRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(record: X402PaymentRecord, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(X402PaymentEntity, record);
  }

  async findById(accountId: string, environment: Environment, id: string): Promise<X402PaymentRecord | null> {
    const row = await this.dataSource.manager.findOneBy(X402PaymentEntity, { id, accountId, environment });
    return row ? toRecord(row) : null;
  }

  /** The payment a retried request (same Idempotency-Key) already made. */
  async findByIdempotencyKey(
    accountId: string,
    environment: Environment,
    idempotencyKey: string,
  ): Promise<X402PaymentRecord | null> {
    const row = await this.dataSource.manager.findOneBy(X402PaymentEntity, {
      accountId,
      environment,
      idempotencyKey,
    });
    return row ? toRecord(row) : null;
  }

  /** The payment held as `transactionId` for its owner's approval. */
  async findByHeldTransaction(
    accountId: string,
    environment: Environment,
    transactionId: string,
  ): Promise<X402PaymentRecord | null> {
    const row = await this.dataSource.manager.findOneBy(X402PaymentEntity, {
      accountId,
      environment,
      approvedTransactionId: transactionId,
    });
    return row ? toRecord(row) : null;
  }

  /**
   * held → signing, once: false when another call holds the claim or signed it. Taken before anything
   * is withdrawn, so parallel claims of one approval withdraw once. A claim a crash left behind is
   * taken over after `staleAfterMs` (nothing was handed out under it).
   */
  async claimHeld(id: string, staleAfterMs: number): Promise<boolean> {
    const now = new Date();
    const result = await this.dataSource.manager
      .createQueryBuilder()
      .update(X402PaymentEntity)
      .set({ status: 'signing', createdAt: now })
      .where("id = :id AND (status = 'held' OR (status = 'signing' AND created_at < :stale))", {
        id,
        stale: new Date(now.getTime() - staleAfterMs),
      })
      .execute();
    return result.affected === 1;
  }

  /** signing → held: the claim signed nothing (the balance fell short, or it failed), a later one may. */
  async releaseClaim(id: string): Promise<void> {
    await this.dataSource.manager
      .createQueryBuilder()
      .update(X402PaymentEntity)
      .set({ status: 'held' })
      .where("id = :id AND status = 'signing'", { id })
      .execute();
  }

  /** signing → signed, by the call that holds the claim. */
  async markSigned(
    id: string,
    signed: Pick<X402PaymentRecord, 'paymentSignature' | 'message' | 'network' | 'feePayer'>,
  ): Promise<boolean> {
    const result = await this.dataSource.manager
      .createQueryBuilder()
      .update(X402PaymentEntity)
      .set({ ...signed, status: 'signed', createdAt: new Date() })
      .where("id = :id AND status = 'signing'", { id })
      .execute();
    return result.affected === 1;
  }

  /**
   * Base units of the public balance promised to payments that may still land: signed within
   * `UNSETTLED_WINDOW_MS` and not settled. Read under the account's settlement lock to hold: the x402
   * signer and a standard transfer both count it (neither may spend what the other promised).
   */
  promisedPublic(accountId: string, environment: Environment, asset: AssetCode): Promise<bigint> {
    return this.committedSince(accountId, environment, asset, new Date(Date.now() - UNSETTLED_WINDOW_MS));
  }

  /** Base units of `asset` promised by payments signed since `since` and not settled yet. */
  async committedSince(
    accountId: string,
    environment: Environment,
    asset: AssetCode,
    since: Date,
  ): Promise<bigint> {
    const rows = await this.dataSource.manager.find(X402PaymentEntity, {
      select: { amountBaseUnits: true },
      where: { accountId, environment, asset, status: 'signed', createdAt: MoreThan(since) },
    });
    return rows.reduce((sum, row) => sum + BigInt(row.amountBaseUnits), 0n);
  }

  /** signed → settled, once: false when it already was (the first report won). */
  async markSettled(
    id: string,
    chainSignature: string,
    settledAt: Date,
    manager: EntityManager,
  ): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(X402PaymentEntity)
      .set({ status: 'settled', chainSignature, settledAt })
      .where('id = :id AND status = :signed', { id, signed: 'signed' })
      .execute();
    return result.affected === 1;
  }
}
