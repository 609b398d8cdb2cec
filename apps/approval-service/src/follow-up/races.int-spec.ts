import { ApprovalHarness, codeOf } from '../testing/approval-harness';

const ROUNDS = 6;

describe('approval-service under concurrency on a real PostgreSQL', () => {
  const harness = new ApprovalHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());
  afterEach(() => {
    harness.transfers.delayMs = 0;
  });

  it('approve ‖ approve: one wins, the other gets transaction_already_decided, one CreateTransfer', async () => {
    harness.transfers.delayMs = 50; // the loser arrives while the winner is still settling
    for (let round = 0; round < ROUNDS; round++) {
      const { owner, id } = await harness.held();
      const results = await Promise.all([
        harness.approve(owner.account_id, id),
        harness.approve(owner.account_id, id),
      ]);
      expect(results.map(codeOf).sort()).toEqual(['ok', 'transaction_already_decided']);
      expect(harness.transferCalls(id)).toHaveLength(1);
      expect(await harness.eventsOf(id)).toEqual([
        'agent.transaction.pending_approval',
        'agent.transaction.approved',
      ]);
      expect((await harness.row(id)).status).toBe('approved');
    }
  });

  it('approve ‖ reject: exactly one decision stands, and a transfer only if approve won', async () => {
    for (let round = 0; round < ROUNDS * 2; round++) {
      const { owner, id, request } = await harness.held();
      const calls = round % 2 === 0 ? (['approve', 'reject'] as const) : (['reject', 'approve'] as const);
      const results = await Promise.all(calls.map((decision) => harness[decision](owner.account_id, id)));
      expect(results.map(codeOf).sort()).toEqual(['ok', 'transaction_already_decided']);
      const winner = calls[results.findIndex((r) => r.ok)];
      const status = (await harness.row(id)).status;
      const events = await harness.eventsOf(id);
      if (winner === 'approve') {
        expect(status).toBe('approved');
        expect(events).toEqual(['agent.transaction.pending_approval', 'agent.transaction.approved']);
        expect(harness.transferCalls(id)).toHaveLength(1);
        expect(harness.releases(request.reservation_id)).toBe(0);
      } else {
        expect(status).toBe('rejected');
        expect(events).toEqual(['agent.transaction.pending_approval', 'agent.transaction.rejected']);
        expect(harness.transferCalls(id)).toHaveLength(0);
        expect(harness.releases(request.reservation_id)).toBe(1);
      }
    }
  });

  it('approve ‖ expiry sweep of an overdue transaction: expired once, approve gets transaction_expired, no transfer', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { owner, id, request } = await harness.heldExpiringIn(-5);
      const [approved] = await Promise.all([
        harness.approve(owner.account_id, id),
        harness.main.sweeper.sweepOnce(),
      ]);
      expect(codeOf(approved)).toBe('transaction_expired');
      expect(await harness.eventsOf(id)).toEqual([
        'agent.transaction.pending_approval',
        'agent.transaction.expired',
      ]);
      expect(harness.transferCalls(id)).toHaveLength(0);
      expect(harness.releases(request.reservation_id)).toBe(1);
    }
  });

  it('approve ‖ expiry sweep at the end of the window: either approved with one transfer or expired, never both', async () => {
    for (let round = 0; round < ROUNDS * 2; round++) {
      const { owner, id, request } = await harness.heldExpiringIn(60);
      await new Promise((resolve) => setTimeout(resolve, 40 + (round % 5) * 10));
      const [approved] = await Promise.all([
        harness.approve(owner.account_id, id),
        harness.main.sweeper.sweepOnce(),
      ]);
      const events = await harness.eventsOf(id);
      if (approved.ok) {
        expect(events).toEqual(['agent.transaction.pending_approval', 'agent.transaction.approved']);
        expect(harness.transferCalls(id)).toHaveLength(1);
        expect(harness.releases(request.reservation_id)).toBe(0);
      } else {
        expect(codeOf(approved)).toBe('transaction_expired');
        expect(events).toEqual(['agent.transaction.pending_approval', 'agent.transaction.expired']);
        expect(harness.transferCalls(id)).toHaveLength(0);
        expect(harness.releases(request.reservation_id)).toBe(1);
      }
    }
  });
});
