import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A delivery is due exactly when it has a next attempt (a check now says so), and the due index is
 * keyed on that alone: a claim without a status test is estimated by the timestamp, so even a table
 * without statistics yet is walked in order instead of sorting every due row on each claim.
 */
export class WebhookDueIndexByNextAttempt1764400000000 implements MigrationInterface {
  name = 'WebhookDueIndexByNextAttempt1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "webhooks"."deliveries" SET next_attempt_at = NULL WHERE status <> 'pending' AND next_attempt_at IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhooks"."deliveries" ADD CONSTRAINT "CK_deliveries_due_when_pending"
       CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))`,
    );
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_deliveries_due"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_deliveries_due" ON "webhooks"."deliveries" ("next_attempt_at") WHERE next_attempt_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_deliveries_due"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_deliveries_due" ON "webhooks"."deliveries" ("next_attempt_at") WHERE status = 'pending'`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhooks"."deliveries" DROP CONSTRAINT "CK_deliveries_due_when_pending"`,
    );
  }
}
