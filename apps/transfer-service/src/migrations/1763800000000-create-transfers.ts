import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateTransfers1763800000000 implements MigrationInterface {
  name = 'CreateTransfers1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "transfers"."custody_keys" ("account_id" text NOT NULL, "environment" text NOT NULL, "owner_address" text NOT NULL, "elgamal_pubkey" text NOT NULL, "sealed_keys" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6c490a1a7889d4ac74511242f94" PRIMARY KEY ("account_id", "environment"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "transfers"."transfers" ("id" text NOT NULL, "environment" text NOT NULL, "command_id" uuid NOT NULL, "idempotency_key" text, "api_key_id" text, "sender_account_id" text NOT NULL, "sender" jsonb NOT NULL, "recipient_account_id" text, "recipient" jsonb NOT NULL, "to_text" text NOT NULL, "asset" text NOT NULL, "confidential" boolean NOT NULL, "status" text NOT NULL, "sealed_amount" text NOT NULL, "sender_encrypted_amount" text NOT NULL, "recipient_encrypted_amount" text, "sender_encrypted_memo" text, "recipient_encrypted_memo" text, "chain_signature" text, "failure_reason" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "confirmed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_f712e908b465e0085b4408cabc3" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_transfers_command" ON "transfers"."transfers" ("command_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_transfers_status" ON "transfers"."transfers" ("status", "updated_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_transfers_idempotency" ON "transfers"."transfers" ("sender_account_id", "environment", "idempotency_key") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_transfers_recipient" ON "transfers"."transfers" ("recipient_account_id", "environment", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_transfers_sender" ON "transfers"."transfers" ("sender_account_id", "environment", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "transfers"."api_key_totals" ("key_id" text NOT NULL, "account_id" text NOT NULL, "encrypted_usdc_total" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_b745cb957c72f238fc976dfb9ed" PRIMARY KEY ("key_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_api_key_totals_account" ON "transfers"."api_key_totals" ("account_id") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "transfers"."api_key_totals"`);
    await queryRunner.query(`DROP TABLE "transfers"."transfers"`);
    await queryRunner.query(`DROP TABLE "transfers"."custody_keys"`);
  }
}
