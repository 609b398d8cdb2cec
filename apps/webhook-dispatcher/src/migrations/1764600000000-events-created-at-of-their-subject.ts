import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A transfer's and a new agent's events are listed by the `created_at` their deliveries carry (the
 * transfer's, the agent's), no longer by when they were recorded: the events already stored move to
 * it, so the events API's order, filters and each event's `created_at` agree on them too.
 */
export class EventsCreatedAtOfTheirSubject1764600000000 implements MigrationInterface {
  name = 'EventsCreatedAtOfTheirSubject1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "webhooks"."events" SET created_at = (data->>'created_at')::timestamptz
       WHERE (type LIKE 'transfer.%' OR type = 'agent.created') AND data ? 'created_at'`,
    );
  }

  async down(): Promise<void> {
    // When each was recorded is not kept: the events stay listed by their subject's time.
  }
}
