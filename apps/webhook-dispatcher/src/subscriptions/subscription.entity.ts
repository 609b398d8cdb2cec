import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A webhook subscription. The secret is stored sealed (AES-256-GCM under DATA_SEALING_KEY), never in clear. */
@Entity({ schema: 'webhooks', name: 'subscriptions' })
@Index('IDX_subscriptions_account', ['accountId', 'environment'])
export class SubscriptionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text', name: 'account_id' })
  accountId!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Column({ type: 'text' })
  url!: string;

  /** The URL's origin (`https://host[:port]`): attempts in flight are limited per endpoint. */
  @Column({ type: 'text' })
  endpoint!: string;

  @Column({ type: 'text', array: true })
  events!: string[];

  @Column({ type: 'text', name: 'secret_sealed' })
  secretSealed!: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  /** Set by DELETE: from then on no attempt of this subscription starts. */
  @Column({ type: 'timestamptz', name: 'deleted_at', nullable: true })
  deletedAt!: Date | null;

  /** Set while disabled: no attempt starts; deliveries wait. */
  @Column({ type: 'timestamptz', name: 'disabled_at', nullable: true })
  disabledAt!: Date | null;

  /** `manual` or `endpoint_failing`, while disabled. */
  @Column({ type: 'text', name: 'disabled_reason', nullable: true })
  disabledReason!: string | null;

  /** The first failed attempt since the last success: the clock of the automatic disable. */
  @Column({ type: 'timestamptz', name: 'failing_since', nullable: true })
  failingSince!: Date | null;

  /** After a rotation, the previous secret (sealed) still signs beside the new until it expires. */
  @Column({ type: 'text', name: 'previous_secret_sealed', nullable: true })
  previousSecretSealed!: string | null;

  @Column({ type: 'timestamptz', name: 'previous_secret_expires_at', nullable: true })
  previousSecretExpiresAt!: Date | null;
}
