import { createOutboxInboxTables, dropOutboxInboxTables } from '@cts/persistence';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateAccounts1763700000000 implements MigrationInterface {
  name = 'CreateAccounts1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "accounts"."accounts" ("id" text NOT NULL, "handle" text NOT NULL, "type" text NOT NULL, "kyc_status" text NOT NULL, "public_key" text, "owner_account_id" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5a7a02c20412299d198e097a8fe" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_accounts_handle" ON "accounts"."accounts" ("handle")`);
    await queryRunner.query(
      `CREATE TABLE "accounts"."verified_domains" ("domain" text NOT NULL, "account_id" text NOT NULL, "verified_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_07a0882167d82e89e757aad00fc" PRIMARY KEY ("domain"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_verified_domains_account" ON "accounts"."verified_domains" ("account_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "accounts"."api_keys" ("id" text NOT NULL, "account_id" text NOT NULL, "name" text NOT NULL, "environment" text NOT NULL, "key_hash" text NOT NULL, "prefix" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, "request_count" bigint NOT NULL DEFAULT '0', "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_api_keys_account" ON "accounts"."api_keys" ("account_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_keys_hash" ON "accounts"."api_keys" ("key_hash")`);
    await createOutboxInboxTables(queryRunner, 'accounts');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropOutboxInboxTables(queryRunner, 'accounts');
    await queryRunner.query(`DROP TABLE "accounts"."api_keys"`);
    await queryRunner.query(`DROP TABLE "accounts"."verified_domains"`);
    await queryRunner.query(`DROP TABLE "accounts"."accounts"`);
  }
}
