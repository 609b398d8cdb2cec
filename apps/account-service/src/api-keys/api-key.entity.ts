import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** An API key as stored: only the keyed hash of the secret, never the secret itself. */
@Entity({ schema: 'accounts', name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Index('IDX_api_keys_account')
  @Column({ type: 'text', name: 'account_id' })
  accountId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Index('UQ_api_keys_hash', { unique: true })
  @Column({ type: 'text', name: 'key_hash' })
  keyHash!: string;

  @Column({ type: 'text' })
  prefix!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'last_used_at', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ type: 'bigint', name: 'request_count', default: 0 })
  requestCount!: string;

  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
