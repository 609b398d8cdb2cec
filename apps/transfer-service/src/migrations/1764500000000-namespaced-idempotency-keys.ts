import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Idempotency keys get a namespace (issue 14): `client:` for what a client sent, `internal:` for what a
 * service derived. Stored keys written before are rewritten so retries within their 24 h still find
 * their transfer: an approval's `approval:atx_…` becomes internal, everything else client. (A client
 * key that forged `approval:…` before this release cannot be told apart; it stays as it settled.)
 */
export class NamespacedIdempotencyKeys1764500000000 implements MigrationInterface {
  name = 'NamespacedIdempotencyKeys1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "transfers"."transfers" SET "idempotency_key" = CASE WHEN "idempotency_key" LIKE 'approval:atx\\_%' THEN 'internal:' || "idempotency_key" ELSE 'client:' || "idempotency_key" END WHERE "idempotency_key" IS NOT NULL AND "idempotency_key" NOT LIKE 'client:%' AND "idempotency_key" NOT LIKE 'internal:%'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "transfers"."transfers" SET "idempotency_key" = regexp_replace("idempotency_key", '^(client|internal):', '') WHERE "idempotency_key" IS NOT NULL`,
    );
  }
}
