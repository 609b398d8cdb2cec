import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An agent's x402 payment (issue 20). Its amount is stored in plaintext on purpose: an x402 payment is
 * a public TransferChecked, so the amount is on the chain for anyone to read (docs/agents.md).
 */
@Entity({ schema: 'transfers', name: 'x402_payments' })
@Index('UQ_x402_payments_idempotency', ['accountId', 'environment', 'idempotencyKey'], { unique: true })
@Index('UQ_x402_payments_approval', ['approvedTransactionId'], { unique: true })
@Index('IDX_x402_payments_account', ['accountId', 'environment', 'asset', 'createdAt'])
export class X402PaymentEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_x402_payments' })
  id!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Column({ type: 'text', name: 'account_id' })
  accountId!: string;

  @Column({ type: 'text', name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  /** The held transaction of this payment (status `held` until its owner approves and the agent pays). */
  @Column({ type: 'text', name: 'approved_transaction_id', nullable: true })
  approvedTransactionId!: string | null;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'text' })
  resource!: string;

  @Column({ type: 'text' })
  network!: string;

  @Column({ type: 'text', name: 'pay_to' })
  payTo!: string;

  @Column({ type: 'text' })
  asset!: string;

  @Column({ type: 'text', name: 'amount_base_units' })
  amountBaseUnits!: string;

  @Column({ type: 'text', name: 'fee_payer' })
  feePayer!: string;

  /** The PAYMENT-SIGNATURE header value (base64 of the payment payload). */
  @Column({ type: 'text', name: 'payment_signature', nullable: true })
  paymentSignature!: string | null;

  /** Base64 message bytes the facilitator's fee-payer signature must cover. */
  @Column({ type: 'text', name: 'message', nullable: true })
  message!: string | null;

  @Column({ type: 'text', name: 'chain_signature', nullable: true })
  chainSignature!: string | null;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'settled_at', nullable: true })
  settledAt!: Date | null;
}
