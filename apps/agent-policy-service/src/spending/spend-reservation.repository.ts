import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type DailyBucket } from './spend-sealer';
import { SpendDailyTotalEntity, SpendReservationEntity } from './spend-reservation.entity';

export interface ReservationRow extends DailyBucket {
  id: string;
  sealedAmount: string;
  releasedAt: Date | null;
}

const toRow = (row: SpendReservationEntity): ReservationRow => ({
  id: row.id,
  agentAccountId: row.agentAccountId,
  environment: row.environment,
  asset: row.asset,
  day: row.day,
  sealedAmount: row.sealedAmount,
  releasedAt: row.releasedAt,
});

/** Sealed rows only: this class never sees a plaintext amount. Callers hold the agent's row lock. */
@Injectable()
export class SpendReservationRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findReservation(
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ReservationRow | null> {
    const row = await manager.findOneBy(SpendReservationEntity, { id });
    return row ? toRow(row) : null;
  }

  async saveReservation(reservation: ReservationRow, manager: EntityManager): Promise<void> {
    await manager.save(manager.create(SpendReservationEntity, reservation));
  }

  async findDailyTotal(bucket: DailyBucket, manager: EntityManager): Promise<string | null> {
    const { agentAccountId, environment, asset, day } = bucket;
    const row = await manager.findOneBy(SpendDailyTotalEntity, { agentAccountId, environment, asset, day });
    return row?.sealedTotal ?? null;
  }

  async saveDailyTotal(bucket: DailyBucket, sealedTotal: string, manager: EntityManager): Promise<void> {
    const { agentAccountId, environment, asset, day } = bucket;
    await manager.save(
      manager.create(SpendDailyTotalEntity, { agentAccountId, environment, asset, day, sealedTotal }),
    );
  }
}
