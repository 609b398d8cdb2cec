import { startAppProcess, type AppProcess } from '@cts/testing';
import { Client } from 'pg';
import { type DistributedStack, startDistributedStack } from './support/distributed-stack';
import { http } from './support/http';
import { account, fund, provenBalance } from './support/transfers.behaviour';

// A killed consumer does not leave its group: a short session lets the restarted one take over sooner.
const RECONCILE = {
  RECONCILE_AFTER_MS: '500',
  RECONCILE_GIVE_UP_MS: '3000',
  COMMAND_TIMEOUT_MS: '10000',
  KAFKA_SESSION_TIMEOUT_MS: '6000',
};

async function waitForRow(
  client: Client,
  sql: string,
  params: unknown[],
  timeoutMs: number,
): Promise<Record<string, unknown> | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await client.query<Record<string, unknown>>(sql, params);
    if (rows[0]) {
      return rows[0];
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return null;
}

describe('a transfer-service killed mid-settlement neither loses nor duplicates a transfer', () => {
  let running: DistributedStack;
  let db: Client;

  beforeAll(async () => {
    running = await startDistributedStack({
      apps: ['account-service', 'transfer-service', 'gateway'],
      env: RECONCILE,
    });
    db = new Client({ connectionString: running.db.url });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await running?.stop();
  }, 60_000);

  it.each([
    ['after the transfer was recorded', 'SELECT id FROM transfers.transfers WHERE sender_account_id = $1'],
    [
      'after the settling transaction was signed',
      'SELECT id FROM transfers.transfers WHERE sender_account_id = $1 AND chain_signature IS NOT NULL',
    ],
  ])(
    'reconciles with the ledger when killed %s',
    async (_moment, killWhen) => {
      const stack = { baseUrl: running.stack.gatewayUrl, adminToken: running.secrets.ADMIN_TOKEN ?? '' };
      const [alice, bob] = [await account(stack), await account(stack)];
      await fund(stack, alice, '100');
      const request = {
        token: alice.token,
        body: { to: bob.account.handle, amount: '10' },
        headers: { 'Idempotency-Key': `crash-${alice.account.account_id}` },
      };
      const inFlight = http(stack.baseUrl, 'POST', '/v1/transfers', request);

      const row = await waitForRow(db, killWhen, [alice.account.account_id], 10_000);
      expect(row).not.toBeNull();
      const index = running.stack.processes.findIndex((p) => p.app === 'transfer-service');
      const service = running.stack.processes[index] as AppProcess;
      await service.kill();
      const answered = await inFlight;
      expect([200, 503]).toContain(answered.status);

      running.stack.processes[index] = await startAppProcess('transfer-service', running.env, {
        onOutput: (app, line) => running.output.push(`[${app}] ${line}`),
      });
      const settled = await waitForRow(
        db,
        "SELECT id, status FROM transfers.transfers WHERE sender_account_id = $1 AND status <> 'pending'",
        [alice.account.account_id],
        30_000,
      );
      expect(settled).not.toBeNull();

      const retried = await http(stack.baseUrl, 'POST', '/v1/transfers', request);
      expect(retried.status).toBe(200);
      const transfer = retried.body as { transfer_id: string; status: string };
      expect(transfer.transfer_id).toBe(settled?.id);
      const { rows } = await db.query<{ count: string }>(
        'SELECT count(*) FROM transfers.transfers WHERE sender_account_id = $1',
        [alice.account.account_id],
      );
      expect(rows[0]?.count).toBe('1');
      const events = await db.query<{ type: string }>(
        `SELECT envelope->>'type' AS type FROM transfers.outbox WHERE envelope->'payload'->>'transfer_id' = $1 ORDER BY created_at`,
        [transfer.transfer_id],
      );
      expect(events.rows.map((e) => e.type)).toEqual(['transfer.initiated', `transfer.${transfer.status}`]);
      expect(await provenBalance(stack, alice)).toBe(transfer.status === 'confirmed' ? '90' : '100');
      expect(await provenBalance(stack, bob)).toBe(transfer.status === 'confirmed' ? '10' : '0');
    },
    120_000,
  );
});
