import { pendingSchemaChanges, runMigrations } from '@cts/persistence';
import { dataSourceFor, type ServiceDefinition } from '@cts/runtime';
import { accountService } from '../apps/account-service/src/account-service';
import { agentPolicyService } from '../apps/agent-policy-service/src/agent-policy-service';
import { approvalService } from '../apps/approval-service/src/approval-service';
import { transferService } from '../apps/transfer-service/src/transfer-service';
import { webhookDispatcher } from '../apps/webhook-dispatcher/src/webhook-dispatcher';
import { createTestDatabase, type TestDatabase } from '@cts/testing';

const services: ServiceDefinition[] = [
  accountService,
  transferService,
  agentPolicyService,
  approvalService,
  webhookDispatcher,
];

describe('migrations match entities (schema drift)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.drop();
  });

  it.each(services.map((s) => [s.name, s] as const))(
    '%s: a freshly migrated schema needs no further change',
    async (_name, service) => {
      const dataSource = dataSourceFor(service, db.url);
      await dataSource.initialize();
      try {
        const applied = await runMigrations(dataSource, service.schema);
        expect(applied.length).toBeGreaterThan(0);
        expect(await pendingSchemaChanges(dataSource)).toEqual([]);
        expect(await runMigrations(dataSource, service.schema)).toEqual([]);
      } finally {
        await dataSource.destroy();
      }
    },
  );
});
