import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Held agent transactions: the owner's approval queue. No amount column: only opaque ciphertexts. */
export class CreateAgentTransactions1764100000000 implements MigrationInterface {
  name = 'CreateAgentTransactions1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "approvals"."agent_transactions" ("id" text NOT NULL, "environment" text NOT NULL, "agent_account_id" text NOT NULL, "agent_handle" text NOT NULL, "owner_account_id" text NOT NULL, "owner_handle" text NOT NULL, "recipient" text NOT NULL, "asset" text NOT NULL, "confidential" boolean NOT NULL, "sealed_amount" text NOT NULL, "sealed_memo" text, "api_key_id" text, "reservation_id" text NOT NULL, "owner_encrypted_amount" text NOT NULL, "status" text NOT NULL, "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "decided_at" TIMESTAMP WITH TIME ZONE, "transfer_id" text, "failure_reason" text, "follow_up_at" TIMESTAMP WITH TIME ZONE, "follow_up_attempts" integer NOT NULL DEFAULT '0', "reservation_released_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_approvals_agent_transactions" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_agent_transactions_reservation" ON "approvals"."agent_transactions" ("reservation_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_transactions_follow_up" ON "approvals"."agent_transactions" ("follow_up_at") WHERE "follow_up_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_transactions_overdue" ON "approvals"."agent_transactions" ("expires_at") WHERE "status" = 'pending_approval'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_transactions_owner_pending" ON "approvals"."agent_transactions" ("owner_account_id", "environment", "expires_at") WHERE "status" = 'pending_approval'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "approvals"."agent_transactions"`);
  }
}
