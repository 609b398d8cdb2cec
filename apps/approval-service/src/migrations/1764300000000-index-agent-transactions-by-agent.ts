import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** An agent's transactions, newest first, for `GET /v1/agents/{account_id}/transactions`. */
export class IndexAgentTransactionsByAgent1764300000000 implements MigrationInterface {
  name = 'IndexAgentTransactionsByAgent1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_transactions_agent" ON "approvals"."agent_transactions" ("agent_account_id", "environment", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "approvals"."IDX_agent_transactions_agent"`);
  }
}
