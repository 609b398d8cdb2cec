import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One event to one subscription, with its retry state. `body` is the exact JSON sent, so every
 * attempt signs and sends the same bytes. An attempt holds the row locked in its transaction: a
 * replica that dies mid-attempt releases it with its connection, then another retries.
 */
@Entity({ schema: 'webhooks', name: 'deliveries' })
@Index('IDX_deliveries_subscription', ['subscriptionId', 'createdAt'])
@Index('IDX_deliveries_due', ['nextAttemptAt'], { where: 'next_attempt_at IS NOT NULL' })
@Check('CK_deliveries_due_when_pending', `(status = 'pending') = (next_attempt_at IS NOT NULL)`)
export class DeliveryEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text', name: 'subscription_id' })
  subscriptionId!: string;

  @Index('IDX_deliveries_event')
  @Column({ type: 'text', name: 'event_id' })
  eventId!: string;

  @Column({ type: 'text', name: 'account_id' })
  accountId!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Column({ type: 'text', name: 'event_type' })
  eventType!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'integer', name: 'attempt_count', default: 0 })
  attemptCount!: number;

  @Column({ type: 'timestamptz', name: 'first_attempt_at', nullable: true })
  firstAttemptAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'last_attempt_at', nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ type: 'integer', name: 'last_status_code', nullable: true })
  lastStatusCode!: number | null;

  @Column({ type: 'timestamptz', name: 'next_attempt_at', nullable: true })
  nextAttemptAt!: Date | null;

  /** Why a `failed` delivery stopped: `endpoint_gone` (410) or `retries_exhausted`. */
  @Column({ type: 'text', name: 'failure_reason', nullable: true })
  failureReason!: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}

/**
 * One HTTP attempt of a delivery: status (or why none came) and at most 1 KB of the response body,
 * which stays here: the delivery log never returns it, as it could hold secrets.
 */
@Entity({ schema: 'webhooks', name: 'delivery_attempts' })
export class DeliveryAttemptEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Index('IDX_delivery_attempts_delivery')
  @Column({ type: 'text', name: 'delivery_id' })
  deliveryId!: string;

  @Column({ type: 'text', name: 'account_id' })
  accountId!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Column({ type: 'integer', name: 'attempt_number' })
  attemptNumber!: number;

  @Column({ type: 'timestamptz', name: 'attempted_at' })
  attemptedAt!: Date;

  @Column({ type: 'integer', name: 'duration_ms' })
  durationMs!: number;

  @Column({ type: 'integer', name: 'status_code', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'text', name: 'response_body', nullable: true })
  responseBody!: string | null;

  /** Stable code of `error` (`timeout`, `connection_refused`, `tls_error`, …): what the log shows. */
  @Column({ type: 'text', name: 'error_code', nullable: true })
  errorCode!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;
}
