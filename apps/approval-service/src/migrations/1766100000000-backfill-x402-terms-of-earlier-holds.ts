import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The table transfer-service records each held x402 payment's quote in (`approved_transaction_id`). */
const X402_PAYMENTS = '"transfers"."x402_payments"';

/**
 * x402 payments held before 1766000000000 have no `x402_pay_to`/`x402_resource`, so they read as
 * transfers to the resource's host (`x402: null`): the dashboard asked the owner to "send" to
 * `127.0.0.1`, "signed and submitted at once", instead of showing the payee and resource it approves.
 * transfer-service kept both with each hold; copied here once. WARNING: the only read of another
 * service's schema. It needs that schema in the same database, readable (one DATABASE_URL for every
 * service, migrations in SERVICE_APPS order: transfers first); elsewhere it does nothing.
 */
export class BackfillX402TermsOfEarlierHolds1766100000000 implements MigrationInterface {
  name = 'BackfillX402TermsOfEarlierHolds1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [found] = (await queryRunner.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [
      X402_PAYMENTS,
    ])) as { present: boolean }[];
    if (!found?.present) {
      return;
    }
    const [access] = (await queryRunner.query(`SELECT has_table_privilege($1, 'SELECT') AS readable`, [
      X402_PAYMENTS,
    ])) as { readable: boolean }[];
    if (!access?.readable) {
      return;
    }
    await queryRunner.query(
      `UPDATE "approvals"."agent_transactions" t
         SET "x402_pay_to" = p."pay_to", "x402_resource" = p."resource"
        FROM ${X402_PAYMENTS} p
       WHERE p."approved_transaction_id" = t."id" AND p."account_id" = t."agent_account_id"
         AND p."environment" = t."environment" AND t."x402_pay_to" IS NULL`,
    );
  }

  async down(): Promise<void> {
    // Nothing to undo: 1766000000000's down drops the columns.
  }
}
