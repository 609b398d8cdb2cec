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

  /** The agent's address on each ledger; null only for agents created before both were kept. */
  @Column({ type: 'text', name: 'address_live', nullable: true })
  addressLive!: string | null;

  @Column({ type: 'text', name: 'address_test', nullable: true })
  addressTest!: string | null;

  @Column({ type: 'text' })
  status!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
