import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateWebhookTables1763800000000 implements MigrationInterface {
  name = 'CreateWebhookTables1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhooks"."subscriptions" ("id" text NOT NULL, "account_id" text NOT NULL, "environment" text NOT NULL, "url" text NOT NULL, "events" text array NOT NULL, "secret_sealed" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_subscriptions_account" ON "webhooks"."subscriptions" ("account_id", "environment")`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhooks"."events" ("id" text NOT NULL, "message_id" uuid NOT NULL, "type" text NOT NULL, "environment" text NOT NULL, "account_ids" text array NOT NULL, "data" jsonb NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_events_message" ON "webhooks"."events" ("message_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_events_created" ON "webhooks"."events" ("created_at")`);
    await queryRunner.query(
      `CREATE TABLE "webhooks"."deliveries" ("id" text NOT NULL, "subscription_id" text NOT NULL, "event_id" text NOT NULL, "account_id" text NOT NULL, "environment" text NOT NULL, "event_type" text NOT NULL, "body" text NOT NULL, "status" text NOT NULL, "attempt_count" integer NOT NULL DEFAULT '0', "first_attempt_at" TIMESTAMP WITH TIME ZONE, "last_attempt_at" TIMESTAMP WITH TIME ZONE, "last_status_code" integer, "next_attempt_at" TIMESTAMP WITH TIME ZONE, "lease_token" uuid, "lease_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a6ef225c5c5f0974e503bfb731f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_deliveries_event" ON "webhooks"."deliveries" ("event_id")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_deliveries_subscription" ON "webhooks"."deliveries" ("subscription_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_deliveries_due" ON "webhooks"."deliveries" ("next_attempt_at") WHERE status = 'pending'`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhooks"."delivery_attempts" ("id" uuid NOT NULL, "delivery_id" text NOT NULL, "account_id" text NOT NULL, "environment" text NOT NULL, "attempt_number" integer NOT NULL, "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "duration_ms" integer NOT NULL, "status_code" integer, "response_body" text, "error" text, CONSTRAINT "PK_41eba4eb5401d72860f7cd9a7ac" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_delivery_attempts_delivery" ON "webhooks"."delivery_attempts" ("delivery_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhooks"."delivery_attempts"`);
    await queryRunner.query(`DROP TABLE "webhooks"."deliveries"`);
    await queryRunner.query(`DROP TABLE "webhooks"."events"`);
    await queryRunner.query(`DROP TABLE "webhooks"."subscriptions"`);
  }
}
