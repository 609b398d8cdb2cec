import { eventually } from '@cts/testing';
import { ApprovalHarness, codeOf } from '../testing/approval-harness';

describe('approval-service expiry sweeper on a real PostgreSQL', () => {
  const harness = new ApprovalHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  it('expires overdue holds only, releases their reservations and publishes agent.transaction.expired', async () => {
    const overdue = await harness.heldExpiringIn(-10);
    const open = await harness.heldExpiringIn(60_000);
    const report = await harness.main.sweeper.sweepOnce();
    expect(report.expired).toBeGreaterThanOrEqual(1);
    expect(await harness.row(overdue.id)).toMatchObject({
      status: 'expired',
      decided_at: null,
      follow_up_at: null,
    });
    expect(await harness.row(open.id)).toMatchObject({ status: 'pending_approval' });
    expect(harness.releases(overdue.request.reservation_id)).toBe(1);
    expect(harness.releases(open.request.reservation_id)).toBe(0);
    await eventually(() =>
      expect(
        harness.main.published.find(
          (e) => e.payload.transaction_id === overdue.id && e.type === 'agent.transaction.expired',
        )?.payload,
      ).toMatchObject({
        status: 'expired',
        decided_at: null,
        transfer_id: null,
      }),
    );
    expect(codeOf(await harness.approve(overdue.owner.account_id, overdue.id))).toBe('transaction_expired');
    expect(harness.releases(overdue.request.reservation_id)).toBe(1);
  });

  it('runs by itself every sweep interval', async () => {
    const ticking = await harness.startReplica({ sweepIntervalMs: 100 });
    const { id } = await harness.heldExpiringIn(300);
    await eventually(async () => expect((await harness.row(id)).status).toBe('expired'), 5_000);
    await harness.stopReplica(ticking);
  });

  it('two replicas sweeping at once expire each transaction exactly once', async () => {
    const other = await harness.startReplica();
    const held = await Promise.all(Array.from({ length: 30 }, (_, i) => harness.heldExpiringIn(-1 - i)));
    const ids = held.map((h) => h.id);
    const reports = await Promise.all([
      harness.main.sweeper.sweepOnce(),
      other.sweeper.sweepOnce(),
      harness.main.sweeper.sweepOnce(),
      other.sweeper.sweepOnce(),
    ]);
    expect(reports.reduce((n, r) => n + r.expired, 0)).toBe(30);
    const expiredEvents = await harness.query<{ key: string }>(
      `SELECT key FROM approvals.outbox WHERE envelope->>'type' = 'agent.transaction.expired' AND key = ANY($1)`,
      [ids],
    );
    expect(expiredEvents.map((e) => e.key).sort()).toEqual([...ids].sort());
    for (const { request } of held) {
      expect(harness.releases(request.reservation_id)).toBe(1);
    }
    await harness.stopReplica(other);
  });

  it('stores no amount: every row of the approvals schema holds the amount only as opaque ciphertext, and only where it must', async () => {
    const parties = harness.newOwner();
    const pending = await harness.held(parties);
    const approved = await harness.held(parties);
    const rejected = await harness.held(parties);
    const expired = await harness.heldExpiringIn(-1, parties);
    await harness.approve(parties.owner.account_id, approved.id);
    await harness.reject(parties.owner.account_id, rejected.id);
    await harness.approve(parties.owner.account_id, expired.id);
    await harness.pending(parties.owner.account_id);

    const tables = await harness.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'approvals' ORDER BY table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(['agent_transactions', 'inbox', 'migrations', 'outbox']);
    const columns = await harness.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'approvals' AND table_name = 'agent_transactions'`,
    );
    expect(
      columns
        .map((c) => c.column_name)
        .filter((c) => /amount/.test(c))
        .sort(),
    ).toEqual(['owner_encrypted_amount', 'sealed_amount']);
    const ciphertexts = [pending, approved, rejected, expired].flatMap((h) => [
      h.request.sealed_amount,
      h.request.owner_encrypted_amount,
    ]);
    for (const table of ['inbox', 'outbox', 'migrations']) {
      const dump = await harness.query<{ row: string }>(`SELECT t::text AS row FROM approvals."${table}" t`);
      for (const { row } of dump) {
        expect(row).not.toMatch(/amount/);
        for (const ciphertext of ciphertexts) {
          expect(row).not.toContain(ciphertext);
        }
      }
    }
    const outbox = await harness.query<{ payload: Record<string, unknown> }>(
      `SELECT envelope->'payload' AS payload FROM approvals.outbox`,
    );
    for (const { payload } of outbox) {
      expect(Object.keys(payload).sort()).toEqual(
        expect.arrayContaining([
          'agent',
          'asset',
          'expires_at',
          'owner',
          'requested_at',
          'status',
          'to',
          'transaction_id',
        ]),
      );
      expect(Object.keys(payload).some((k) => /amount|sealed|memo/.test(k))).toBe(false);
    }
  });
});
