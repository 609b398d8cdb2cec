import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * An amount set aside against an agent's daily limit for one transaction. WARNING: the amount is
 * sealed (DATA_SEALING_KEY, context bound to this reservation and agent): never a plaintext column.
 */
@Entity({ schema: 'agents', name: 'spend_reservations' })
export class SpendReservationEntity {
  /** Chosen by the caller (the transfer or held transaction id): evaluating it again replaces it. */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_agents_spend_reservations' })
  id!: string;

  @Index('IDX_spend_reservations_agent')
  @Column({ type: 'text', name: 'agent_account_id' })
  agentAccountId!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Column({ type: 'text' })
  asset!: string;

  /** `YYYY-MM-DD` in the policy's time zone when it was (last) evaluated. */
  @Column({ type: 'text' })
  day!: string;

  @Column({ type: 'text', name: 'sealed_amount' })
  sealedAmount!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;

  /** Set when freed; the row stays so a late duplicate release is a no-op. */
  @Column({ type: 'timestamptz', name: 'released_at', nullable: true })
  releasedAt!: Date | null;
}

/**
 * The sealed sum of an agent's active reservations per environment, asset and day: the daily
 * counter. WARNING: sealed with a context naming all four, so a total cannot be moved to another row.
 */
@Entity({ schema: 'agents', name: 'spend_daily_totals' })
export class SpendDailyTotalEntity {
  @PrimaryColumn({
    type: 'text',
    name: 'agent_account_id',
    primaryKeyConstraintName: 'PK_agents_spend_daily_totals',
  })
  agentAccountId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_agents_spend_daily_totals' })
  environment!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_agents_spend_daily_totals' })
  asset!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_agents_spend_daily_totals' })
  day!: string;

  @Column({ type: 'text', name: 'sealed_total' })
  sealedTotal!: string;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
