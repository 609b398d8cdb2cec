import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Subscriptions can be disabled (by hand, or after days of failures), have their secret rotated
 * (the previous one signs beside the new for 24 h), and remember since when they fail. Events are
 * listed per account: a GIN index on `account_ids` with the environment and time of each event.
 */
export class WebhookManagementAndEventsApi1764500000000 implements MigrationInterface {
  name = 'WebhookManagementAndEventsApi1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhooks"."subscriptions"
         ADD "disabled_at" TIMESTAMP WITH TIME ZONE,
         ADD "disabled_reason" text,
         ADD "failing_since" TIMESTAMP WITH TIME ZONE,
         ADD "previous_secret_sealed" text,
         ADD "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_events_account_ids" ON "webhooks"."events" USING GIN ("account_ids")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_events_environment_created" ON "webhooks"."events" ("environment", "created_at", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_events_environment_created"`);
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_events_account_ids"`);
    await queryRunner.query(
      `ALTER TABLE "webhooks"."subscriptions" DROP "previous_secret_expires_at", DROP "previous_secret_sealed",
         DROP "failing_since", DROP "disabled_reason", DROP "disabled_at"`,
    );
  }
}
