import { createServiceDataSource, runMigrations } from '@cts/persistence';
import { createTestDatabase, type TestDatabase } from '@cts/testing';
import { migrations } from '../migrations';

/** The first migration whose rows carry x402 terms: everything before it is the schema of older releases. */
const WITH_X402_COLUMNS = migrations.findIndex((m) => m.name.startsWith('AddX402Terms'));

/** transfer-service's table as older releases left it (only the columns the backfill reads). */
const X402_PAYMENTS = `CREATE SCHEMA "transfers";
  CREATE TABLE "transfers"."x402_payments" ("id" text PRIMARY KEY, "environment" text NOT NULL,
    "account_id" text NOT NULL, "approved_transaction_id" text, "status" text NOT NULL,
    "resource" text NOT NULL, "pay_to" text NOT NULL)`;

const hold = (id: string, agent: string, recipient: string) =>
  `INSERT INTO "approvals"."agent_transactions" ("id", "environment", "agent_account_id", "agent_handle",
     "owner_account_id", "owner_handle", "recipient", "asset", "confidential", "sealed_amount",
     "reservation_id", "owner_encrypted_amount", "status", "requested_at", "expires_at")
   VALUES ('${id}', 'test', '${agent}', '@owner/bot', 'acct_owner', '@owner', '${recipient}', 'USDC', false,
     'sealed', 'tr_${id}', 'ciphertext', 'pending_approval', now(), now() + interval '1 hour')`;

/** Runs the migrations of an older release, `before` against it, then every migration. */
async function upgrade(
  db: TestDatabase,
  before: (query: (sql: string) => Promise<unknown>) => Promise<void>,
) {
  const old = createServiceDataSource({
    schema: 'approvals',
    url: db.url,
    entities: [],
    migrations: migrations.slice(0, WITH_X402_COLUMNS),
  });
  await runMigrations(old, 'approvals');
  await old.initialize();
  await before((sql) => old.query(sql));
  await old.destroy();
  const current = createServiceDataSource({ schema: 'approvals', url: db.url, entities: [], migrations });
  await runMigrations(current, 'approvals');
  await current.initialize();
  try {
    return await current.query<{ id: string; x402_pay_to: string | null; x402_resource: string | null }[]>(
      `SELECT id, x402_pay_to, x402_resource FROM "approvals"."agent_transactions" ORDER BY id`,
    );
  } finally {
    await current.destroy();
  }
}

describe('upgrading holds made before x402 terms were kept', () => {
  let db: TestDatabase;

  beforeEach(async () => {
    db = await createTestDatabase();
  });
  afterEach(() => db.drop());

  it('gives an x402 payment held before the upgrade the payee and resource transfer-service recorded', async () => {
    const rows = await upgrade(db, async (query) => {
      await query(X402_PAYMENTS);
      await query(hold('atx_1_x402', 'acct_bot', 'api.example.com'));
      await query(hold('atx_2_transfer', 'acct_bot', '@shop'));
      await query(hold('atx_3_other_agent', 'acct_bot', 'api.example.com'));
      await query(
        `INSERT INTO "transfers"."x402_payments" VALUES
           ('x402_1', 'test', 'acct_bot', 'atx_1_x402', 'held', 'https://api.example.com/report', 'PayeeAddr111'),
           ('x402_3', 'test', 'acct_someone_else', 'atx_3_other_agent', 'held', 'https://evil.example/', 'Evil111')`,
      );
    });
    expect(rows).toEqual([
      { id: 'atx_1_x402', x402_pay_to: 'PayeeAddr111', x402_resource: 'https://api.example.com/report' },
      { id: 'atx_2_transfer', x402_pay_to: null, x402_resource: null },
      { id: 'atx_3_other_agent', x402_pay_to: null, x402_resource: null },
    ]);
  });

  it('upgrades a database without transfer-service’s schema, leaving the terms unknown', async () => {
    const rows = await upgrade(db, async (query) => {
      await query(hold('atx_1_x402', 'acct_bot', 'api.example.com'));
    });
    expect(rows).toEqual([{ id: 'atx_1_x402', x402_pay_to: null, x402_resource: null }]);
  });
});
