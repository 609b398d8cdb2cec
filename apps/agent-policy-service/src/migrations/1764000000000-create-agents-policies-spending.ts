import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Agents, their spend policies, and sealed spend reservations with their sealed daily totals. */
export class CreateAgentsPoliciesSpending1764000000000 implements MigrationInterface {
  name = 'CreateAgentsPoliciesSpending1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agents"."agents" ("account_id" text NOT NULL, "owner_account_id" text NOT NULL, "owner_handle" text NOT NULL, "name" text NOT NULL, "handle" text NOT NULL, "public_key" text NOT NULL, "status" text NOT NULL, "spend_policy_id" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_agents_agents" PRIMARY KEY ("account_id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_agents_handle" ON "agents"."agents" ("handle")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_agents_owner_name" ON "agents"."agents" ("owner_account_id", "name")`,
    );
    await queryRunner.query(
      `CREATE TABLE "agents"."spend_policies" ("id" text NOT NULL, "agent_account_id" text NOT NULL, "daily_limit_micros" bigint NOT NULL, "per_transaction_limit_micros" bigint NOT NULL, "hitl_threshold_micros" bigint, "allowed_recipients" text array NOT NULL, "assets" text array NOT NULL, "active_hours" text, "timezone" text NOT NULL, "approval_window_minutes" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_agents_spend_policies" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_spend_policies_agent" ON "agents"."spend_policies" ("agent_account_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "agents"."spend_reservations" ("id" text NOT NULL, "agent_account_id" text NOT NULL, "environment" text NOT NULL, "asset" text NOT NULL, "day" text NOT NULL, "sealed_amount" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "released_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_agents_spend_reservations" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_spend_reservations_agent" ON "agents"."spend_reservations" ("agent_account_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "agents"."spend_daily_totals" ("agent_account_id" text NOT NULL, "environment" text NOT NULL, "asset" text NOT NULL, "day" text NOT NULL, "sealed_total" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_agents_spend_daily_totals" PRIMARY KEY ("agent_account_id", "environment", "asset", "day"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "agents"."spend_daily_totals"`);
    await queryRunner.query(`DROP TABLE "agents"."spend_reservations"`);
    await queryRunner.query(`DROP TABLE "agents"."spend_policies"`);
    await queryRunner.query(`DROP TABLE "agents"."agents"`);
  }
}
