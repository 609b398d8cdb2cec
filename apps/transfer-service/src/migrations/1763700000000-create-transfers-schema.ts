import { createOutboxInboxTables, dropOutboxInboxTables } from '@cts/persistence';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateTransfersSchema1763700000000 implements MigrationInterface {
  name = 'CreateTransfersSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createOutboxInboxTables(queryRunner, 'transfers');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropOutboxInboxTables(queryRunner, 'transfers');
  }
}
