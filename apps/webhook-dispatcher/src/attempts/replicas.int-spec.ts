import { TransferConfirmed } from '@cts/contracts';
import { createTestDatabase, eventually, type TestDatabase } from '@cts/testing';
import { Client } from 'pg';
import { DeliveryScheduler } from './delivery-scheduler';
import {
  createWebhook,
  type DispatcherInstance,
  startDispatcher,
  type TestDns,
  testResolver,
} from '../testing/dispatcher-harness';
import { eventEnvelope, publishEvent, senderParty, transferPayload } from '../testing/event-factories';
import { HttpsReceiver } from '@cts/testing';
import { generateTestCertificates } from '@cts/testing';

describe('two webhook-dispatcher replicas on one database', () => {
  const certificates = generateTestCertificates(['receiver.test']);
  const dns: TestDns = new Map([['receiver.test', '127.0.0.1']]);
  const lookups = { a: 0, b: 0 };
  let db: TestDatabase;
  let receiver: HttpsReceiver;
  let a: DispatcherInstance;
  let b: DispatcherInstance;

  // Each replica resolves through its own counter: every attempt opens a connection, so this tells who sent.
  const countingResolver = (replica: 'a' | 'b') => {
    const resolve = testResolver(dns);
    return (host: string) => {
      lookups[replica]++;
      return resolve(host);
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    receiver = await new HttpsReceiver(certificates).start();
    a = await startDispatcher(db, certificates, dns, {}, { resolve: countingResolver('a') });
    b = await startDispatcher(db, certificates, dns, {}, { resolve: countingResolver('b') });
  });

  afterAll(async () => {
    await a.service.close();
    await b.service.close();
    await receiver.close();
    await db.drop();
  });

  it('delivers each attempt once while both replicas claim from the same table', async () => {
    const created = await createWebhook(a.commands, {
      account_id: 'acct_busy',
      environment: 'test',
      url: receiver.url('/busy', 'receiver.test'),
      events: ['transfer.confirmed'],
    });
    if (!created.ok) throw new Error('setup failed');
    receiver.on('/busy', () => ({ status: 200, delayMs: 40 }));
    const before = { ...lookups };

    for (let i = 0; i < 40; i++) {
      publishEvent(
        a.bus,
        TransferConfirmed,
        eventEnvelope(
          TransferConfirmed,
          transferPayload({ transfer_id: `tr_${i}`, sender: senderParty('acct_busy', '@busy') }),
        ),
      );
    }

    await eventually(() => expect(receiver.received('/busy')).toHaveLength(40), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ids = receiver.received('/busy').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(lookups.a - before.a).toBeGreaterThan(0);
    expect(lookups.b - before.b).toBeGreaterThan(0);
    const [{ count }] = await a.dataSource.query<[{ count: number }]>(
      `SELECT count(*)::int AS count FROM "webhooks"."delivery_attempts"`,
    );
    expect(count).toBe(40);
  }, 30_000);

  it('skips a delivery another replica is attempting, and makes it once that replica dies', async () => {
    const created = await createWebhook(a.commands, {
      account_id: 'acct_orphan',
      environment: 'test',
      url: receiver.url('/orphan'),
      events: ['transfer.confirmed'],
    });
    if (!created.ok) throw new Error('setup failed');
    // A third replica, as a raw connection: it has claimed the due delivery (row locked in its open
    // transaction) and is still sending it when the event goes out, then it dies.
    const replica = new Client({ connectionString: db.url });
    replica.on('error', () => undefined); // Its connection is cut below, on purpose.
    await replica.connect();
    const {
      rows: [{ pid }],
    } = await replica.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await replica.query('BEGIN');
    await replica.query(
      `INSERT INTO "webhooks"."deliveries" (id, subscription_id, event_id, account_id, environment, event_type, body,
         status, next_attempt_at)
       VALUES ('dlv_orphaned', $1, 'evt_orphaned', 'acct_orphan', 'test', 'transfer.confirmed', '{}', 'pending',
         now() + interval '1 second')`,
      [created.value.webhook_id],
    );
    await replica.query('COMMIT');
    await replica.query('BEGIN');
    await replica.query(`SELECT id FROM "webhooks"."deliveries" WHERE id = 'dlv_orphaned' FOR NO KEY UPDATE`);
    a.service.app.get(DeliveryScheduler).kick();
    b.service.app.get(DeliveryScheduler).kick();

    // Due only after the replica holds it (1 s after the insert): the lanes polling every 50 ms skip it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received('/orphan')).toHaveLength(0);

    await a.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
    await eventually(() => expect(receiver.received('/orphan')).toHaveLength(1), 5000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received('/orphan')).toHaveLength(1);
    const [row] = await a.dataSource.query<{ status: string; attempt_count: number }[]>(
      `SELECT status, attempt_count FROM "webhooks"."deliveries" WHERE id = 'dlv_orphaned'`,
    );
    expect(row).toEqual({ status: 'succeeded', attempt_count: 1 });
  }, 15_000);
});
