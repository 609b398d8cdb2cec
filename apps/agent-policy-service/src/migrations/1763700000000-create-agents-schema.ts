import { createOutboxInboxTables, dropOutboxInboxTables } from '@cts/persistence';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateAgentsSchema1763700000000 implements MigrationInterface {
  name = 'CreateAgentsSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createOutboxInboxTables(queryRunner, 'agents');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropOutboxInboxTables(queryRunner, 'agents');
  }
}
