import { Injectable } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import { type ReservationRow, SpendReservationRepository } from './spend-reservation.repository';
import { type DailyBucket, SpendSealer } from './spend-sealer';

const sameBucket = (a: DailyBucket, b: DailyBucket): boolean =>
  a.agentAccountId === b.agentAccountId &&
  a.environment === b.environment &&
  a.asset === b.asset &&
  a.day === b.day;

/**
 * Reservations against the daily limit and the sealed per-day counters they add up to.
 * WARNING: every method must run inside the transaction that holds the agent's row lock
 * (AgentRepository.lockById): the read-modify-write of a counter is safe only under it.
 */
@Injectable()
export class SpendLedger {
  constructor(
    private readonly rows: SpendReservationRepository,
    private readonly sealer: SpendSealer,
  ) {}

  findReservation(id: string, manager?: EntityManager): Promise<ReservationRow | null> {
    return this.rows.findReservation(id, manager);
  }

  /** What is reserved in `bucket`, not counting `own` (the reservation being re-evaluated). */
  async spentExcluding(
    bucket: DailyBucket,
    own: ReservationRow | null,
    manager: EntityManager,
  ): Promise<bigint> {
    const total = await this.total(bucket, manager);
    return own && own.releasedAt === null && sameBucket(own, bucket) ? total - this.amountOf(own) : total;
  }

  /** Sets reservation `id` to `amount` in `bucket`, moving it out of wherever it was. */
  async reserve(
    id: string,
    bucket: DailyBucket,
    amount: bigint,
    existing: ReservationRow | null,
    manager: EntityManager,
  ): Promise<void> {
    if (existing && existing.releasedAt === null) {
      await this.addToTotal(existing, -this.amountOf(existing), manager);
    }
    await this.addToTotal(bucket, amount, manager);
    const sealedAmount = this.sealer.sealReservation(amount, id, bucket.agentAccountId);
    await this.rows.saveReservation({ id, ...bucket, sealedAmount, releasedAt: null }, manager);
  }

  /** Frees an active reservation; false if it was already free. */
  async release(reservation: ReservationRow, manager: EntityManager): Promise<boolean> {
    if (reservation.releasedAt !== null) {
      return false;
    }
    await this.addToTotal(reservation, -this.amountOf(reservation), manager);
    await this.rows.saveReservation({ ...reservation, releasedAt: new Date() }, manager);
    return true;
  }

  private amountOf(reservation: ReservationRow): bigint {
    return this.sealer.openReservation(reservation.sealedAmount, reservation.id, reservation.agentAccountId);
  }

  private async total(bucket: DailyBucket, manager: EntityManager): Promise<bigint> {
    const sealed = await this.rows.findDailyTotal(bucket, manager);
    return sealed === null ? 0n : this.sealer.openDailyTotal(sealed, bucket);
  }

  private async addToTotal(bucket: DailyBucket, delta: bigint, manager: EntityManager): Promise<void> {
    const next = (await this.total(bucket, manager)) + delta;
    // Below zero would mean a counter out of step with its reservations: never let it go negative.
    const bounded = next < 0n ? 0n : next;
    await this.rows.saveDailyTotal(bucket, this.sealer.sealDailyTotal(bounded, bucket), manager);
  }
}
