import { GetAccount, newId, SetKycStatus } from '@cts/contracts';
import { type RunningApp } from '@cts/runtime';
import { type CommandBus } from '@cts/messaging';
import { createTestDatabase, kafkaCommandBus, kafkaTestRuntime, type TestDatabase } from '@cts/testing';
import { type ClientKafka } from '@nestjs/microservices';
import { start } from '../account-service';

const context = { correlationId: 'req_kafka_test', environment: null, accountId: null };

describe('account-service over a real Kafka broker', () => {
  const suffix = `-${Date.now()}`;
  let db: TestDatabase;
  let service: RunningApp;
  let client: ClientKafka;
  let bus: CommandBus;

  beforeAll(async () => {
    db = await createTestDatabase();
    service = await start(kafkaTestRuntime(db.url, 'account-service', suffix));
    ({ bus, client } = await kafkaCommandBus(suffix));
  }, 90_000);

  afterAll(async () => {
    await client.close();
    await service.close();
    await db.drop();
  });

  it('answers a command round trip gateway → Kafka → account-service → reply', async () => {
    // Creating an account needs transfer-service too: the distributed e2e covers it over Kafka.
    const unknown = newId('acct');
    expect(await bus.send(GetAccount, { account_id: unknown }, context)).toMatchObject({
      ok: false,
      error: { code: 'account_not_found' },
    });
    expect(
      await bus.send(SetKycStatus, { account_id: unknown, kyc_status: 'verified' }, context),
    ).toMatchObject({
      ok: false,
      error: { code: 'account_not_found' },
    });
  }, 60_000);
});
