import { createOutboxInboxTables, dropOutboxInboxTables } from '@cts/persistence';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateApprovalsSchema1763700000000 implements MigrationInterface {
  name = 'CreateApprovalsSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createOutboxInboxTables(queryRunner, 'approvals');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropOutboxInboxTables(queryRunner, 'approvals');
  }
}
