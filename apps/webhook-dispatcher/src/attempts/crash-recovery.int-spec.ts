import {
  createTestDatabase,
  eventually,
  generateTestCertificates,
  HttpsReceiver,
  type TestDatabase,
} from '@cts/testing';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client } from 'pg';
import { type DispatcherInstance, startDispatcher } from '../testing/dispatcher-harness';

const repoRoot = join(__dirname, '../../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const EVENTS = 3;

/** Starts the child dispatcher; resolves with it and its subscription once it has subscribed. */
async function startChild(config: object): Promise<{ child: ChildProcess; webhookId: string }> {
  const child = spawn(process.execPath, [join(__dirname, '../testing/children/dispatcher-child.cjs')], {
    env: {
      ...process.env,
      DISPATCHER_CHILD_CONFIG: JSON.stringify(config),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(() => {
    expect(child.exitCode).toBeNull();
    expect(output).toContain('webhook_id');
  }, 30_000);
  const { webhook_id } = JSON.parse(output.split('\n')[0] ?? '{}') as { webhook_id: string };
  return { child, webhookId: webhook_id };
}

describe('a webhook-dispatcher killed mid-batch (a real process, SIGKILL)', () => {
  const certificates = generateTestCertificates();
  let db: TestDatabase;
  let receiver: HttpsReceiver;
  let child: ChildProcess | undefined;
  let survivor: DispatcherInstance | undefined;

  beforeAll(() => {
    // The child runs the built dispatcher: bring dist/ up to date with the sources under test.
    execFileSync(
      process.execPath,
      [
        'tools/build.mjs',
        'contracts',
        'crypto',
        'messaging',
        'persistence',
        'platform',
        'testing',
        'webhook-dispatcher',
      ],
      { cwd: repoRoot, stdio: 'ignore' },
    );
  }, 120_000);

  beforeEach(async () => {
    db = await createTestDatabase();
    receiver = await new HttpsReceiver(certificates).start();
  });

  afterEach(async () => {
    child?.kill('SIGKILL');
    await survivor?.service.close();
    await receiver.close();
    await db.drop();
  });

  it('loses nothing: each attempt in flight is made again by another replica, exactly once', async () => {
    // The child's attempts reach the receiver and hang there (its timeout is 15 s); later ones succeed.
    receiver.on('/crash', (_request, index) =>
      index < EVENTS ? { status: 200, delayMs: 5000 } : { status: 200 },
    );
    const started = await startChild({
      databaseUrl: db.url,
      ca: certificates.ca,
      url: receiver.url('/crash'),
      events: EVENTS,
    });
    child = started.child;
    await eventually(() => expect(receiver.received('/crash')).toHaveLength(EVENTS), 15_000);

    child.kill('SIGKILL');
    const [, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect(signal).toBe('SIGKILL');

    // The killed attempts left nothing: their transactions rolled back with their connections.
    const reader = new Client({ connectionString: db.url });
    await reader.connect();
    const { rows: orphaned } = await reader.query<{ status: string; attempt_count: number }>(
      `SELECT status, attempt_count FROM "webhooks"."deliveries" WHERE subscription_id = $1`,
      [started.webhookId],
    );
    const { rows: attempts } = await reader.query(`SELECT id FROM "webhooks"."delivery_attempts"`);
    await reader.end();
    expect(orphaned).toEqual(Array(EVENTS).fill({ status: 'pending', attempt_count: 0 }));
    expect(attempts).toHaveLength(0);

    survivor = await startDispatcher(db, certificates, new Map());
    await eventually(() => expect(receiver.received('/crash')).toHaveLength(2 * EVENTS), 15_000);
    await sleep(1000);

    const requests = receiver.received('/crash');
    expect(requests).toHaveLength(2 * EVENTS);
    const perEvent = new Map<string, number>();
    for (const request of requests) {
      const id = String(request.headers['webhook-id']);
      perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
    }
    expect([...perEvent.values()]).toEqual(Array(EVENTS).fill(2));
    const after = await survivor.dataSource.query<
      { status: string; attempt_count: number; attempts: number }[]
    >(
      `SELECT d.status, d.attempt_count, (SELECT count(*)::int FROM "webhooks"."delivery_attempts" a WHERE a.delivery_id = d.id) AS attempts
       FROM "webhooks"."deliveries" d WHERE d.subscription_id = $1`,
      [started.webhookId],
    );
    expect(after).toEqual(Array(EVENTS).fill({ status: 'succeeded', attempt_count: 1, attempts: 1 }));
  }, 60_000);
});
