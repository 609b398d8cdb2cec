import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Per-endpoint limits and the detailed delivery log: a subscription's endpoint (URL origin), why a
 * delivery failed, and a stable code for an attempt's network error. Existing rows are backfilled
 * (before this, a delivery could only fail by running out of retries).
 */
export class WebhookEndpointLimitsAndLog1764200000000 implements MigrationInterface {
  name = 'WebhookEndpointLimitsAndLog1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhooks"."subscriptions" ADD "endpoint" text`);
    await queryRunner.query(
      `UPDATE "webhooks"."subscriptions"
       SET "endpoint" = regexp_replace(lower(substring("url" from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+')), '^(https://[^/]*?)\\.?(:443)?$', '\\1')`,
    );
    await queryRunner.query(`ALTER TABLE "webhooks"."subscriptions" ALTER COLUMN "endpoint" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "webhooks"."deliveries" ADD "failure_reason" text`);
    await queryRunner.query(
      `UPDATE "webhooks"."deliveries" SET "failure_reason" = 'retries_exhausted' WHERE "status" = 'failed'`,
    );
    await queryRunner.query(`ALTER TABLE "webhooks"."delivery_attempts" ADD "error_code" text`);
    await queryRunner.query(
      `UPDATE "webhooks"."delivery_attempts" SET "error_code" = CASE
         WHEN "error" LIKE 'timeout:%' THEN 'timeout'
         WHEN "error" LIKE 'refused:%' OR "error" LIKE 'EWEBHOOKBLOCKED%' THEN 'destination_refused'
         WHEN "error" LIKE 'ENOTFOUND%' OR "error" LIKE 'EAI_%' THEN 'dns_error'
         WHEN "error" LIKE 'ECONNREFUSED%' THEN 'connection_refused'
         WHEN "error" ~* 'certificate|tls|ssl' THEN 'tls_error'
         ELSE 'connection_error' END
       WHERE "status_code" IS NULL AND "error" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhooks"."delivery_attempts" DROP COLUMN "error_code"`);
    await queryRunner.query(`ALTER TABLE "webhooks"."deliveries" DROP COLUMN "failure_reason"`);
    await queryRunner.query(`ALTER TABLE "webhooks"."subscriptions" DROP COLUMN "endpoint"`);
  }
}
