import { CreateAccount, GetAccount, newId } from '@cts/contracts';
import { type RunningApp } from '@cts/platform';
import { createTestDatabase, kafkaCommandBus, kafkaTestRuntime, type TestDatabase } from '@cts/testing';
import { type ClientKafka } from '@nestjs/microservices';
import { type CommandBus } from '@cts/messaging';
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
    const created = await bus.send(
      CreateAccount,
      {
        account_id: newId('acct'),
        addresses: { test: 'test-address', live: 'live-address' },
        handle: '@kafka_alice',
        type: 'business',
        api_keys: [],
      },
      context,
    );
    expect(created).toMatchObject({
      ok: true,
      value: { account: { handle: '@kafka_alice', kyc_status: 'unverified' } },
    });
    if (!created.ok) return;
    const fetched = await bus.send(GetAccount, { account_id: created.value.account.account_id }, context);
    expect(fetched).toEqual({ ok: true, value: created.value.account });
  }, 60_000);
});
