import { EntitySchema, type QueryRunner } from 'typeorm';

export interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  envelope: unknown;
  created_at: Date;
  sent_at: Date | null;
}

export interface InboxRow {
  message_id: string;
  consumer: string;
  handled_at: Date;
  reply: unknown;
}

/** `<schema>.outbox` and `<schema>.inbox`, as entity schemas so the drift check covers them. */
export function outboxInboxEntities(schema: string): EntitySchema[] {
  const outbox = new EntitySchema<OutboxRow>({
    name: `${schema}.outbox`,
    tableName: 'outbox',
    schema,
    columns: {
      id: { type: 'uuid', primary: true, primaryKeyConstraintName: `PK_${schema}_outbox` },
      topic: { type: 'text' },
      key: { type: 'text' },
      envelope: { type: 'jsonb' },
      created_at: { type: 'timestamptz', createDate: true },
      sent_at: { type: 'timestamptz', nullable: true },
    },
    indices: [{ name: `${schema}_outbox_unsent`, columns: ['created_at'], where: 'sent_at IS NULL' }],
  });
  const inbox = new EntitySchema<InboxRow>({
    name: `${schema}.inbox`,
    tableName: 'inbox',
    schema,
    columns: {
      message_id: { type: 'uuid', primary: true, primaryKeyConstraintName: `PK_${schema}_inbox` },
      consumer: { type: 'text', primary: true, primaryKeyConstraintName: `PK_${schema}_inbox` },
      handled_at: { type: 'timestamptz', createDate: true },
      reply: { type: 'jsonb', nullable: true },
    },
  });
  return [outbox, inbox];
}

/** The migration half of `outboxInboxEntities`: every service's first migration calls it. */
export async function createOutboxInboxTables(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`CREATE TABLE "${schema}"."outbox" (
    "id" uuid NOT NULL, "topic" text NOT NULL, "key" text NOT NULL, "envelope" jsonb NOT NULL,
    "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "sent_at" TIMESTAMP WITH TIME ZONE,
    CONSTRAINT "PK_${schema}_outbox" PRIMARY KEY ("id"))`);
  await queryRunner.query(
    `CREATE INDEX "${schema}_outbox_unsent" ON "${schema}"."outbox" ("created_at") WHERE sent_at IS NULL`,
  );
  await queryRunner.query(`CREATE TABLE "${schema}"."inbox" (
    "message_id" uuid NOT NULL, "consumer" text NOT NULL,
    "handled_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "reply" jsonb,
    CONSTRAINT "PK_${schema}_inbox" PRIMARY KEY ("message_id", "consumer"))`);
}

export async function dropOutboxInboxTables(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`DROP TABLE "${schema}"."inbox"`);
  await queryRunner.query(`DROP TABLE "${schema}"."outbox"`);
}
