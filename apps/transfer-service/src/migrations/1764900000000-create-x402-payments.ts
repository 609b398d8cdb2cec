import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Agents' x402 payments (issue 20): what was signed, for idempotent replays and settlement reports. */
export class CreateX402Payments1764900000000 implements MigrationInterface {
  name = 'CreateX402Payments1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "transfers"."x402_payments" ("id" text NOT NULL, "environment" text NOT NULL, "account_id" text NOT NULL, "idempotency_key" text, "approved_transaction_id" text, "status" text NOT NULL, "resource" text NOT NULL, "network" text NOT NULL, "pay_to" text NOT NULL, "asset" text NOT NULL, "amount_base_units" text NOT NULL, "fee_payer" text NOT NULL, "payment_signature" text, "message" text, "chain_signature" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "settled_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_x402_payments" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_x402_payments_account" ON "transfers"."x402_payments" ("account_id", "environment", "asset", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_x402_payments_approval" ON "transfers"."x402_payments" ("approved_transaction_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_x402_payments_idempotency" ON "transfers"."x402_payments" ("account_id", "environment", "idempotency_key") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "transfers"."x402_payments"`);
  }
}
