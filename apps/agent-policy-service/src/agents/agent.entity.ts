import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'agents', name: 'agents' })
@Index('UQ_agents_owner_name', ['ownerAccountId', 'name'], { unique: true })
export class AgentEntity {
  /** The agent's own account (account-service). */
  @PrimaryColumn({ type: 'text', name: 'account_id', primaryKeyConstraintName: 'PK_agents_agents' })
  accountId!: string;

  @Column({ type: 'text', name: 'owner_account_id' })
  ownerAccountId!: string;

  @Column({ type: 'text', name: 'owner_handle' })
  ownerHandle!: string;

  @Column({ type: 'text' })
  name!: string;

  @Index('UQ_agents_handle', { unique: true })
  @Column({ type: 'text' })
  handle!: string;

  @Column({ type: 'text', name: 'public_key' })
  publicKey!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'text', name: 'spend_policy_id' })
  spendPolicyId!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
