import { Column, Entity, Index, PrimaryColumn, type ValueTransformer } from 'typeorm';

/** Postgres bigint ↔ bigint (the driver hands out strings, so precision is never lost on the way). */
export const bigintColumn: ValueTransformer = {
  to: (value: bigint | null | undefined) =>
    value === null || value === undefined ? value : value.toString(),
  from: (value: string | null) => (value === null ? null : BigInt(value)),
};

/**
 * One policy per agent and environment: a test key never reads or changes what governs live money.
 * Limits are policy settings (millionths of an asset unit), not transfer amounts.
 */
@Entity({ schema: 'agents', name: 'spend_policies' })
@Index('UQ_spend_policies_agent_environment', ['agentAccountId', 'environment'], { unique: true })
export class SpendPolicyEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_agents_spend_policies' })
  id!: string;

  @Column({ type: 'text', name: 'agent_account_id' })
  agentAccountId!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Column({ type: 'bigint', name: 'daily_limit_micros', transformer: bigintColumn })
  dailyLimit!: bigint;

  @Column({ type: 'bigint', name: 'per_transaction_limit_micros', transformer: bigintColumn })
  perTransactionLimit!: bigint;

  @Column({ type: 'bigint', name: 'hitl_threshold_micros', nullable: true, transformer: bigintColumn })
  hitlThreshold!: bigint | null;

  @Column({ type: 'text', name: 'allowed_recipients', array: true })
  allowedRecipients!: string[];

  @Column({ type: 'text', array: true })
  assets!: string[];

  @Column({ type: 'text', name: 'active_hours', nullable: true })
  activeHours!: string | null;

  @Column({ type: 'text' })
  timezone!: string;

  @Column({ type: 'integer', name: 'approval_window_minutes' })
  approvalWindowMinutes!: number;

  /** Set by the code, not on every save: a patch that changes nothing leaves it alone. */
  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
