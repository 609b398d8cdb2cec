import { createOutboxInboxTables, dropOutboxInboxTables } from '@cts/persistence';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateWebhooksSchema1763700000000 implements MigrationInterface {
  name = 'CreateWebhooksSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createOutboxInboxTables(queryRunner, 'webhooks');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropOutboxInboxTables(queryRunner, 'webhooks');
  }
}
