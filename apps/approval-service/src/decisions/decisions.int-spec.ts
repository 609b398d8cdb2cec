import { ApproveAgentTransaction, createEnvelope, fail, ok } from '@cts/contracts';
import { eventually } from '@cts/testing';
import { transferResource } from '../testing/fake-peers';
import { ApprovalHarness, codeOf, context } from '../testing/approval-harness';

describe('approval-service approve and reject on a real PostgreSQL', () => {
  const harness = new ApprovalHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());
  afterEach(() => {
    harness.transfers.respond = null;
    harness.transfers.delayMs = 0;
    harness.policies.failures = 0;
  });

  it('approves: one CreateTransfer of the agent under the reserved id and idempotency key, then approved with the transfer', async () => {
    const { owner, agent, id, request, held } = await harness.held(undefined, { sealed_memo: 's1.memo' });
    const approved = await harness.approve(owner.account_id, id);
    expect(approved).toEqual({
      ok: true,
      value: {
        transaction_id: id,
        status: 'approved',
        agent: agent.handle,
        to: request.to,
        asset: 'USDC',
        requested_at: held.requested_at,
        expires_at: held.expires_at,
        decided_at: expect.any(String),
        transfer_id: request.reservation_id,
        x402: null,
      },
    });
    expect(harness.transferCalls(id)).toEqual([
      {
        account_id: agent.account_id,
        environment: 'test',
        api_key_id: request.api_key_id,
        to: request.to,
        asset: 'USDC',
        confidential: true,
        sealed_amount: request.sealed_amount,
        sealed_memo: 's1.memo',
        idempotency_key: `internal:approval:${id}`,
        approved_transfer_id: request.reservation_id,
      },
    ]);
    expect(harness.releases(request.reservation_id)).toBe(0);
    expect(await harness.row(id)).toMatchObject({ status: 'approved', follow_up_at: null });
    expect(await harness.eventsOf(id)).toEqual([
      'agent.transaction.pending_approval',
      'agent.transaction.approved',
    ]);
    await eventually(() =>
      expect(
        harness.main.published.filter((e) => e.payload.transaction_id === id).map((e) => e.type),
      ).toEqual(['agent.transaction.pending_approval', 'agent.transaction.approved']),
    );
    const event = harness.main.published.find(
      (e) => e.type === 'agent.transaction.approved' && e.payload.transaction_id === id,
    );
    expect(event?.payload).toMatchObject({
      status: 'approved',
      decided_at: approved.ok && approved.value.decided_at,
    });
    expect(await harness.pending(owner.account_id)).toEqual([]);
  });

  it('counts a transfer still pending on the ledger as approved', async () => {
    harness.transfers.respond = (req) =>
      ok({ kind: 'transfer', transfer: transferResource(req, { status: 'pending', confirmed_at: null }) });
    const { owner, id, request } = await harness.held();
    expect(await harness.approve(owner.account_id, id)).toMatchObject({
      ok: true,
      value: { status: 'approved', transfer_id: request.reservation_id },
    });
  });

  it.each([
    ['a refusal', () => fail('insufficient_balance', 'not enough USDC'), 'insufficient_balance', false],
    [
      'a policy violation',
      () => fail('policy_violation', 'over', { reason: 'daily_limit_exceeded' }),
      'daily_limit_exceeded',
      false,
    ],
    ['a failed transfer', null, 'ledger_rejected', true],
  ])(
    'fails on %s: failure_reason, agent.transaction.failed after approved, and the reservation released once',
    async (_case, refusal, reason, withTransfer) => {
      harness.transfers.respond =
        refusal ??
        ((req) =>
          ok({
            kind: 'transfer',
            transfer: transferResource(req, { status: 'failed', failure_reason: 'ledger_rejected' }),
          }));
      const { owner, id, request } = await harness.held();
      const reply = await harness.approve(owner.account_id, id);
      expect(reply).toMatchObject({
        ok: true,
        value: {
          status: 'failed',
          failure_reason: reason,
          transfer_id: withTransfer ? request.reservation_id : null,
        },
      });
      expect(harness.transferCalls(id)).toHaveLength(1);
      expect(harness.releases(request.reservation_id)).toBe(1);
      expect(await harness.row(id)).toMatchObject({
        status: 'failed',
        failure_reason: reason,
        follow_up_at: null,
        reservation_released_at: expect.any(Date),
      });
      expect(await harness.eventsOf(id)).toEqual([
        'agent.transaction.pending_approval',
        'agent.transaction.approved',
        'agent.transaction.failed',
      ]);
      const [failed] = await harness.query<{ payload: Record<string, unknown> }>(
        `SELECT envelope->'payload' AS payload FROM approvals.outbox WHERE key = $1 AND envelope->>'type' = 'agent.transaction.failed'`,
        [id],
      );
      expect(failed.payload).toMatchObject({ status: 'failed', failure_reason: reason });
      expect(codeOf(await harness.approve(owner.account_id, id))).toBe('transaction_already_decided');
    },
  );

  it('rejects: nothing is sent to transfer-service, the reservation is released, agent.transaction.rejected', async () => {
    const { owner, id, request } = await harness.held();
    const rejected = await harness.reject(owner.account_id, id);
    expect(rejected).toMatchObject({
      ok: true,
      value: { transaction_id: id, status: 'rejected', decided_at: expect.any(String), transfer_id: null },
    });
    expect(rejected.ok && 'failure_reason' in rejected.value).toBe(false);
    expect(harness.transferCalls(id)).toEqual([]);
    expect(harness.releases(request.reservation_id)).toBe(1);
    expect(await harness.eventsOf(id)).toEqual([
      'agent.transaction.pending_approval',
      'agent.transaction.rejected',
    ]);
    expect(await harness.row(id)).toMatchObject({
      status: 'rejected',
      reservation_released_at: expect.any(Date),
    });
  });

  it('answers not found, not the owner and already decided, changing nothing', async () => {
    const { owner, agent, id } = await harness.held();
    for (const decide of [harness.approve.bind(harness), harness.reject.bind(harness)]) {
      expect(await decide(owner.account_id, 'atx_unknown')).toMatchObject({
        ok: false,
        error: { code: 'transaction_not_found', message: 'No pending transaction for this ID' },
      });
      expect(codeOf(await decide(owner.account_id, id, 'live'))).toBe('transaction_not_found');
      expect(codeOf(await decide(agent.account_id, id))).toBe('not_agent_owner');
      expect(codeOf(await decide(harness.newOwner().owner.account_id, id))).toBe('not_agent_owner');
    }
    expect(await harness.eventsOf(id)).toEqual(['agent.transaction.pending_approval']);
    expect(codeOf(await harness.reject(owner.account_id, id))).toBe('ok');
    expect(codeOf(await harness.approve(owner.account_id, id))).toBe('transaction_already_decided');
    expect(codeOf(await harness.reject(owner.account_id, id))).toBe('transaction_already_decided');
    const approved = await harness.held();
    expect(codeOf(await harness.approve(approved.owner.account_id, approved.id))).toBe('ok');
    expect(codeOf(await harness.reject(approved.owner.account_id, approved.id))).toBe(
      'transaction_already_decided',
    );
    expect(harness.transferCalls(id)).toEqual([]);
  });

  it('answers transaction_expired after the window, expires the transaction once and releases its reservation', async () => {
    const { owner, id, request } = await harness.heldExpiringIn(-1);
    expect(await harness.approve(owner.account_id, id)).toMatchObject({
      ok: false,
      error: { code: 'transaction_expired', message: 'The approval window has passed' },
    });
    expect(codeOf(await harness.reject(owner.account_id, id))).toBe('transaction_expired');
    expect(codeOf(await harness.approve(owner.account_id, id))).toBe('transaction_expired');
    expect(await harness.row(id)).toMatchObject({
      status: 'expired',
      decided_at: null,
      reservation_released_at: expect.any(Date),
    });
    expect(await harness.eventsOf(id)).toEqual([
      'agent.transaction.pending_approval',
      'agent.transaction.expired',
    ]);
    expect(harness.releases(request.reservation_id)).toBe(1);
    expect(harness.transferCalls(id)).toEqual([]);
  });

  it('gives a redelivered approve its first answer without a second transfer', async () => {
    const { owner, id } = await harness.held();
    const envelope = createEnvelope(
      ApproveAgentTransaction.topic,
      1,
      { caller_account_id: owner.account_id, environment: 'test' as const, transaction_id: id },
      context,
    );
    const first = (await harness.main.rawBus.request(ApproveAgentTransaction.topic, envelope)) as {
      payload: unknown;
    };
    const second = (await harness.main.rawBus.request(ApproveAgentTransaction.topic, envelope)) as {
      payload: unknown;
    };
    expect(second.payload).toEqual(first.payload);
    expect(first.payload).toMatchObject({ ok: true, value: { status: 'approved' } });
    expect(harness.transferCalls(id)).toHaveLength(1);
  });

  it('finishes an approval transfer-service did not answer: resends the same CreateTransfer once the lease ends', async () => {
    harness.transfers.respond = () => fail('service_unavailable', 'no reply in time');
    const { owner, id, request } = await harness.held();
    const reply = await harness.approve(owner.account_id, id);
    expect(reply).toMatchObject({ ok: true, value: { status: 'approved', transfer_id: null } });
    expect(await harness.row(id)).toMatchObject({ status: 'approving', follow_up_at: expect.any(Date) });

    harness.transfers.respond = null;
    expect(await harness.main.sweeper.sweepOnce()).toEqual({ expired: 0, followedUp: 0 }); // lease still running
    const afterLease = new Date(Date.now() + 31_000);
    expect(await harness.main.sweeper.sweepOnce(afterLease)).toMatchObject({ followedUp: 1 });
    const calls = harness.transferCalls(id);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual(calls[0]);
    expect(await harness.row(id)).toMatchObject({
      status: 'approved',
      transfer_id: request.reservation_id,
      follow_up_at: null,
    });
    expect(await harness.eventsOf(id)).toEqual([
      'agent.transaction.pending_approval',
      'agent.transaction.approved',
    ]);
  });

  it('retries a release agent-policy-service did not take, until it does', async () => {
    harness.policies.failures = 2;
    const { owner, id, request } = await harness.held();
    expect(codeOf(await harness.reject(owner.account_id, id))).toBe('ok');
    expect(await harness.row(id)).toMatchObject({
      status: 'rejected',
      reservation_released_at: null,
      follow_up_at: expect.any(Date),
    });
    await harness.main.sweeper.sweepOnce(new Date(Date.now() + 31_000));
    expect((await harness.row(id)).reservation_released_at).toBeNull();
    await harness.main.sweeper.sweepOnce(new Date(Date.now() + 31_000 + 61_000));
    expect(await harness.row(id)).toMatchObject({
      reservation_released_at: expect.any(Date),
      follow_up_at: null,
    });
    expect(harness.releases(request.reservation_id)).toBe(3);
  });

  it('finishes at start what a replica left approving when it crashed', async () => {
    const { owner, id, request } = await harness.held();
    // The crash: the decision committed, the CreateTransfer never left.
    await harness.query(
      `UPDATE approvals.agent_transactions SET status = 'approving', decided_at = now(), follow_up_at = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    const restarted = await harness.startReplica();
    await eventually(async () => expect((await harness.row(id)).status).toBe('approved'));
    expect(restarted.transfers.callsFor(id)).toEqual([
      expect.objectContaining({
        idempotency_key: `internal:approval:${id}`,
        approved_transfer_id: request.reservation_id,
      }),
    ]);
    expect(harness.transferCalls(id)).toHaveLength(1);
    expect(codeOf(await harness.approve(owner.account_id, id))).toBe('transaction_already_decided');
    await harness.stopReplica(restarted);
  });
});
