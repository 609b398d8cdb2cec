import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class AccountAddresses1763800000000 implements MigrationInterface {
  name = 'AccountAddresses1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "accounts"."accounts" DROP COLUMN "public_key"`);
    await queryRunner.query(`ALTER TABLE "accounts"."accounts" ADD "address_test" text`);
    await queryRunner.query(`ALTER TABLE "accounts"."accounts" ADD "address_live" text`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_accounts_address_test" ON "accounts"."accounts" ("address_test") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_accounts_address_live" ON "accounts"."accounts" ("address_live") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "accounts"."UQ_accounts_address_live"`);
    await queryRunner.query(`DROP INDEX "accounts"."UQ_accounts_address_test"`);
    await queryRunner.query(`ALTER TABLE "accounts"."accounts" DROP COLUMN "address_live"`);
    await queryRunner.query(`ALTER TABLE "accounts"."accounts" DROP COLUMN "address_test"`);
    await queryRunner.query(`ALTER TABLE "accounts"."accounts" ADD "public_key" text`);
  }
}
