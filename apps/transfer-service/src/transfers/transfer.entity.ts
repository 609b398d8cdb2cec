import { type TransactionParty, type TransferRecipient } from '@cts/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * WARNING: no plaintext amount in this table, ever. `sealed_amount` is AES-GCM under
 * DATA_SEALING_KEY (for settling and reconciling); each party reads its own `encrypted_amount_*`.
 */
@Entity({ schema: 'transfers', name: 'transfers' })
@Index('IDX_transfers_sender', ['senderAccountId', 'environment', 'createdAt'])
@Index('IDX_transfers_recipient', ['recipientAccountId', 'environment', 'createdAt'])
@Index('UQ_transfers_idempotency', ['senderAccountId', 'environment', 'idempotencyKey'], { unique: true })
@Index('IDX_transfers_status', ['status', 'updatedAt'])
export class TransferEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Index('UQ_transfers_command', { unique: true })
  @Column({ type: 'uuid', name: 'command_id' })
  commandId!: string;

  @Column({ type: 'text', name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  @Column({ type: 'text', name: 'api_key_id', nullable: true })
  apiKeyId!: string | null;

  @Column({ type: 'text', name: 'sender_account_id' })
  senderAccountId!: string;

  /** The sender as the transfer's events name it (handle, owner): a snapshot at creation. */
  @Column({ type: 'jsonb' })
  sender!: TransactionParty;

  @Column({ type: 'text', name: 'recipient_account_id', nullable: true })
  recipientAccountId!: string | null;

  @Column({ type: 'jsonb' })
  recipient!: TransferRecipient;

  @Column({ type: 'text', name: 'to_text' })
  to!: string;

  @Column({ type: 'text' })
  asset!: string;

  @Column({ type: 'boolean' })
  confidential!: boolean;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'text', name: 'sealed_amount' })
  sealedAmount!: string;

  @Column({ type: 'text', name: 'sender_encrypted_amount' })
  senderEncryptedAmount!: string;

  @Column({ type: 'text', name: 'recipient_encrypted_amount', nullable: true })
  recipientEncryptedAmount!: string | null;

  @Column({ type: 'text', name: 'sender_encrypted_memo', nullable: true })
  senderEncryptedMemo!: string | null;

  @Column({ type: 'text', name: 'recipient_encrypted_memo', nullable: true })
  recipientEncryptedMemo!: string | null;

  @Column({ type: 'text', name: 'chain_signature', nullable: true })
  chainSignature!: string | null;

  @Column({ type: 'text', name: 'failure_reason', nullable: true })
  failureReason!: string | null;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', name: 'confirmed_at', nullable: true })
  confirmedAt!: Date | null;
}

/** Spec §5.5 "total USDC transferred" per API key, as an AE ciphertext only the account opens. */
@Entity({ schema: 'transfers', name: 'api_key_totals' })
export class ApiKeyTotalEntity {
  @PrimaryColumn({ type: 'text', name: 'key_id' })
  keyId!: string;

  @Index('IDX_api_key_totals_account')
  @Column({ type: 'text', name: 'account_id' })
  accountId!: string;

  @Column({ type: 'text', name: 'encrypted_usdc_total' })
  encryptedUsdcTotal!: string;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
