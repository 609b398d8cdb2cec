import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A held x402 payment's payee address and resource URL, shown to the owner who approves it (the
 * policy matched only the resource's host). Nullable: transfers, and rows held before, have none.
 */
export class AddX402TermsToAgentTransactions1766000000000 implements MigrationInterface {
  name = 'AddX402TermsToAgentTransactions1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "approvals"."agent_transactions" ADD "x402_pay_to" text, ADD "x402_resource" text`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "approvals"."agent_transactions" DROP COLUMN "x402_resource", DROP COLUMN "x402_pay_to"`,
    );
  }
}
