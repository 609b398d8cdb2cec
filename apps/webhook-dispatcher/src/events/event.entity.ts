import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A consumed domain event, kept 30 days for replay. `data` is the contract payload as received. */
@Entity({ schema: 'webhooks', name: 'events' })
@Index('IDX_events_environment_created', ['environment', 'createdAt', 'id'])
// A GIN index (TypeORM cannot describe it): the events API finds an account's events by it.
@Index('IDX_events_account_ids', { synchronize: false })
export class EventEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  /** The envelope id: one stored event per message, whatever the redeliveries. */
  @Index('UQ_events_message', { unique: true })
  @Column({ type: 'uuid', name: 'message_id' })
  messageId!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text' })
  environment!: string;

  /** Every account the event concerns: replay is refused to anyone else. */
  @Column({ type: 'text', name: 'account_ids', array: true })
  accountIds!: string[];

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Column({ type: 'timestamptz', name: 'occurred_at' })
  occurredAt!: Date;

  @Index('IDX_events_created')
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
