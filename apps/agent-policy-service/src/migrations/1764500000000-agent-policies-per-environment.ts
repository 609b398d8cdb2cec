import { newId } from '@cts/contracts';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Test and live are separate worlds (issue 14): an agent gets one spend policy per environment, and
 * its address on each ledger. An existing agent's one policy governed both worlds; it becomes the
 * live policy, and a copy of it (same rules, new id) the test policy. An existing agent's single
 * `public_key` was its address in whichever environment created it, which this schema cannot tell:
 * both address columns start empty and listings ask account-service, which keeps both.
 */
export class AgentPoliciesPerEnvironment1764500000000 implements MigrationInterface {
  name = 'AgentPoliciesPerEnvironment1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "agents"."spend_policies" ADD "environment" text NOT NULL DEFAULT 'live'`,
    );
    await queryRunner.query(`ALTER TABLE "agents"."spend_policies" ALTER COLUMN "environment" DROP DEFAULT`);
    await queryRunner.query(`DROP INDEX "agents"."UQ_spend_policies_agent"`);
    const existing = (await queryRunner.query(`SELECT "id" FROM "agents"."spend_policies"`)) as {
      id: string;
    }[];
    for (const { id } of existing) {
      await queryRunner.query(
        `INSERT INTO "agents"."spend_policies" ("id", "agent_account_id", "environment", "daily_limit_micros", "per_transaction_limit_micros", "hitl_threshold_micros", "allowed_recipients", "assets", "active_hours", "timezone", "approval_window_minutes", "updated_at")
         SELECT $1, "agent_account_id", 'test', "daily_limit_micros", "per_transaction_limit_micros", "hitl_threshold_micros", "allowed_recipients", "assets", "active_hours", "timezone", "approval_window_minutes", "updated_at"
         FROM "agents"."spend_policies" WHERE "id" = $2`,
        [newId('pol'), id],
      );
    }
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_spend_policies_agent_environment" ON "agents"."spend_policies" ("agent_account_id", "environment")`,
    );
    await queryRunner.query(`ALTER TABLE "agents"."agents" DROP COLUMN "spend_policy_id"`);
    await queryRunner.query(`ALTER TABLE "agents"."agents" DROP COLUMN "public_key"`);
    await queryRunner.query(`ALTER TABLE "agents"."agents" ADD "address_live" text`);
    await queryRunner.query(`ALTER TABLE "agents"."agents" ADD "address_test" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents"."agents" ADD "public_key" text`);
    await queryRunner.query(
      `UPDATE "agents"."agents" SET "public_key" = COALESCE("address_live", "address_test", '')`,
    );
    await queryRunner.query(`ALTER TABLE "agents"."agents" ALTER COLUMN "public_key" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "agents"."agents" ADD "spend_policy_id" text`);
    await queryRunner.query(
      `UPDATE "agents"."agents" a SET "spend_policy_id" = p."id" FROM "agents"."spend_policies" p WHERE p."agent_account_id" = a."account_id" AND p."environment" = 'live'`,
    );
    await queryRunner.query(`ALTER TABLE "agents"."agents" ALTER COLUMN "spend_policy_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "agents"."agents" DROP COLUMN "address_test"`);
    await queryRunner.query(`ALTER TABLE "agents"."agents" DROP COLUMN "address_live"`);
    await queryRunner.query(`DROP INDEX "agents"."UQ_spend_policies_agent_environment"`);
    await queryRunner.query(`DELETE FROM "agents"."spend_policies" WHERE "environment" = 'test'`);
    await queryRunner.query(`ALTER TABLE "agents"."spend_policies" DROP COLUMN "environment"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_spend_policies_agent" ON "agents"."spend_policies" ("agent_account_id")`,
    );
  }
}
