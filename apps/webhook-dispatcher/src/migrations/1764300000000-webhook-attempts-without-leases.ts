import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * An attempt now claims its delivery with a row lock held by its own transaction, so a replica that
 * dies releases it with its connection: the lease columns are gone. Rolling back restores them
 * empty (no lease held), which the previous version reads as unclaimed.
 */
export class WebhookAttemptsWithoutLeases1764300000000 implements MigrationInterface {
  name = 'WebhookAttemptsWithoutLeases1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhooks"."deliveries" DROP COLUMN "lease_token", DROP COLUMN "lease_until"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhooks"."deliveries" ADD "lease_token" uuid, ADD "lease_until" TIMESTAMP WITH TIME ZONE`,
    );
  }
}
