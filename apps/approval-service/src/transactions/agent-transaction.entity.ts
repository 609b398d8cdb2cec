import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A held agent transaction. WARNING: no amount column, ever. `sealed_amount` and `sealed_memo` are
 * sealed for the agent's account (DATA_SEALING_KEY) and `owner_encrypted_amount` is an AE ciphertext
 * under the owner's key: this service stores and forwards them, it never opens them.
 */
@Entity({ schema: 'approvals', name: 'agent_transactions' })
@Index('IDX_agent_transactions_owner_pending', ['ownerAccountId', 'environment', 'expiresAt'], {
  where: `"status" = 'pending_approval'`,
})
@Index('IDX_agent_transactions_overdue', ['expiresAt'], { where: `"status" = 'pending_approval'` })
@Index('IDX_agent_transactions_agent', ['agentAccountId', 'environment', 'id'])
@Index('IDX_agent_transactions_follow_up', ['followUpAt'], { where: `"follow_up_at" IS NOT NULL` })
export class AgentTransactionEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_approvals_agent_transactions' })
  id!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Column({ type: 'text', name: 'agent_account_id' })
  agentAccountId!: string;

  @Column({ type: 'text', name: 'agent_handle' })
  agentHandle!: string;

  @Column({ type: 'text', name: 'owner_account_id' })
  ownerAccountId!: string;

  @Column({ type: 'text', name: 'owner_handle' })
  ownerHandle!: string;

  /** `to` as the agent wrote it. */
  @Column({ type: 'text' })
  recipient!: string;

  @Column({ type: 'text' })
  asset!: string;

  @Column({ type: 'boolean' })
  confidential!: boolean;

  @Column({ type: 'text', name: 'sealed_amount' })
  sealedAmount!: string;

  @Column({ type: 'text', name: 'sealed_memo', nullable: true })
  sealedMemo!: string | null;

  @Column({ type: 'text', name: 'api_key_id', nullable: true })
  apiKeyId!: string | null;

  /** One held transaction per reservation: a repeated hold finds the first. */
  @Index('UQ_agent_transactions_reservation', { unique: true })
  @Column({ type: 'text', name: 'reservation_id' })
  reservationId!: string;

  @Column({ type: 'text', name: 'owner_encrypted_amount' })
  ownerEncryptedAmount!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'timestamptz', name: 'requested_at' })
  requestedAt!: Date;

  @Column({ type: 'timestamptz', name: 'expires_at' })
  expiresAt!: Date;

  @Column({ type: 'timestamptz', name: 'decided_at', nullable: true })
  decidedAt!: Date | null;

  @Column({ type: 'text', name: 'transfer_id', nullable: true })
  transferId!: string | null;

  @Column({ type: 'text', name: 'failure_reason', nullable: true })
  failureReason!: string | null;

  /** An x402 payment's payee address (the quote's `payTo`) and resource URL; both null for a transfer. */
  @Column({ type: 'text', name: 'x402_pay_to', nullable: true })
  x402PayTo!: string | null;

  @Column({ type: 'text', name: 'x402_resource', nullable: true })
  x402Resource!: string | null;

  /**
   * Work left after a commit — sending the approval's CreateTransfer (`approving`) or freeing the
   * spend reservation (`rejected`, `expired`, `failed`) — is due at this time; null when none is left.
   * Whoever does the work first pushes it into the future (a lease), so replicas do not repeat it.
   */
  @Column({ type: 'timestamptz', name: 'follow_up_at', nullable: true })
  followUpAt!: Date | null;

  @Column({ type: 'integer', name: 'follow_up_attempts', default: 0 })
  followUpAttempts!: number;

  @Column({ type: 'timestamptz', name: 'reservation_released_at', nullable: true })
  reservationReleasedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
