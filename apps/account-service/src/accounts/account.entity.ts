import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ schema: 'accounts', name: 'accounts' })
export class AccountEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Index('UQ_accounts_handle', { unique: true })
  @Column({ type: 'text' })
  handle!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text', name: 'kyc_status' })
  kycStatus!: string;

  @Index('UQ_accounts_address_test', { unique: true })
  @Column({ type: 'text', name: 'address_test', nullable: true })
  addressTest!: string | null;

  @Index('UQ_accounts_address_live', { unique: true })
  @Column({ type: 'text', name: 'address_live', nullable: true })
  addressLive!: string | null;

  @Column({ type: 'text', name: 'owner_account_id', nullable: true })
  ownerAccountId!: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}

@Entity({ schema: 'accounts', name: 'verified_domains' })
export class VerifiedDomainEntity {
  @PrimaryColumn({ type: 'text' })
  domain!: string;

  @Index('IDX_verified_domains_account')
  @Column({ type: 'text', name: 'account_id' })
  accountId!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'verified_at' })
  verifiedAt!: Date;
}
