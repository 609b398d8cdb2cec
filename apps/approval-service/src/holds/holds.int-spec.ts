import {
  createEnvelope,
  GetAgentTransaction,
  HoldAgentTransaction,
  ListPendingApprovals,
} from '@cts/contracts';
import { pendingSchemaChanges } from '@cts/persistence';
import { eventually } from '@cts/testing';
import { ApprovalHarness, codeOf, context } from '../testing/approval-harness';

describe('approval-service holds and the pending list on a real PostgreSQL', () => {
  const harness = new ApprovalHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  it('migrates to exactly what the entities describe (no schema drift)', async () => {
    expect(await pendingSchemaChanges(harness.dataSource)).toEqual([]);
  });

  it('holds a transaction for its window and publishes agent.transaction.pending_approval without an amount', async () => {
    const parties = harness.newOwner();
    const request = harness.holdRequest(parties, {
      to: 'pay.shop.example',
      requested_at: '2030-01-02T03:04:05.678Z',
      approval_window_minutes: 45,
      sealed_memo: 's1.sealed-memo',
    });
    const reply = await harness.bus.send(HoldAgentTransaction, request, context);
    expect(reply).toEqual({
      ok: true,
      value: {
        transaction_id: expect.stringMatching(/^atx_[0-9a-z]{26}$/),
        status: 'pending_approval',
        agent: parties.agent.handle,
        to: 'pay.shop.example',
        asset: 'USDC',
        requested_at: '2030-01-02T03:04:05.678Z',
        expires_at: '2030-01-02T03:49:05.678Z',
      },
    });
    if (!reply.ok) return;
    const id = reply.value.transaction_id;
    await eventually(() =>
      expect(harness.main.published.filter((e) => e.payload.transaction_id === id)).toEqual([
        expect.objectContaining({
          type: 'agent.transaction.pending_approval',
          account_id: null,
          payload: {
            transaction_id: id,
            status: 'pending_approval',
            agent: parties.agent,
            owner: parties.owner,
            to: 'pay.shop.example',
            asset: 'USDC',
            requested_at: '2030-01-02T03:04:05.678Z',
            expires_at: '2030-01-02T03:49:05.678Z',
            decided_at: null,
            transfer_id: null,
            x402: null,
          },
        }),
      ]),
    );
    expect(await harness.row(id)).toMatchObject({
      status: 'pending_approval',
      sealed_amount: request.sealed_amount,
      sealed_memo: 's1.sealed-memo',
      owner_encrypted_amount: request.owner_encrypted_amount,
      reservation_id: request.reservation_id,
      api_key_id: request.api_key_id,
      follow_up_at: null,
    });
  });

  it('shows the owner who a held x402 payment pays and for which resource: pending list, transaction and event', async () => {
    const parties = harness.newOwner();
    const x402 = {
      pay_to: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      resource: 'https://api.example.com/weather?city=Oslo',
    };
    const { id, request } = await harness.held(parties, {
      to: 'api.example.com',
      confidential: false,
      reservation_id: 'x402_06hz0000000000000000000000',
      x402,
    });

    const [item] = await harness.pending(parties.owner.account_id);
    expect(item).toMatchObject({ transaction_id: id, to: 'api.example.com', x402 });
    const view = await harness.bus.send(
      GetAgentTransaction,
      { caller_account_id: parties.owner.account_id, environment: 'test', transaction_id: id },
      context,
    );
    expect(view).toMatchObject({
      ok: true,
      value: { transaction_id: id, status: 'pending_approval', x402 },
    });
    await eventually(() =>
      expect(harness.main.published.find((e) => e.payload.transaction_id === id)?.payload).toMatchObject({
        to: 'api.example.com',
        x402,
      }),
    );
    expect(await harness.row(id)).toMatchObject({
      x402_pay_to: x402.pay_to,
      x402_resource: x402.resource,
      reservation_id: request.reservation_id,
    });
    // Never a plaintext amount next to the terms.
    expect(Object.keys(item).filter((key) => key.includes('amount'))).toEqual(['encrypted_amount']);
  });

  it('gives a redelivered hold its first reply and creates nothing twice', async () => {
    const request = harness.holdRequest(harness.newOwner());
    const envelope = createEnvelope(
      HoldAgentTransaction.topic,
      1,
      HoldAgentTransaction.request.parse(request),
      context,
    );
    const first = (await harness.main.rawBus.request(HoldAgentTransaction.topic, envelope)) as {
      payload: unknown;
    };
    const second = (await harness.main.rawBus.request(HoldAgentTransaction.topic, envelope)) as {
      payload: unknown;
    };
    expect(second.payload).toEqual(first.payload);
    const rows = await harness.query<{ id: string }>(
      `SELECT id FROM approvals.agent_transactions WHERE reservation_id = $1`,
      [request.reservation_id],
    );
    expect(rows).toHaveLength(1);
    expect(await harness.eventsOf(rows[0].id)).toEqual(['agent.transaction.pending_approval']);
  });

  it('keeps one transaction per reservation, also for repeats racing in under new message ids', async () => {
    const request = harness.holdRequest(harness.newOwner());
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => harness.bus.send(HoldAgentTransaction, request, context)),
    );
    const ids = new Set(replies.map((r) => (r.ok ? r.value.transaction_id : r.error.code)));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(id).toMatch(/^atx_/);
    expect(await harness.eventsOf(id)).toEqual(['agent.transaction.pending_approval']);
  });

  it('refuses an agent as its own owner and a reservation already held for another agent', async () => {
    const parties = harness.newOwner();
    const own = await harness.bus.send(
      HoldAgentTransaction,
      harness.holdRequest({ owner: parties.agent, agent: parties.agent }),
      context,
    );
    expect(own).toMatchObject({ ok: false, error: { code: 'invalid_request', param: 'owner' } });
    const { request } = await harness.held(parties);
    const stolen = await harness.bus.send(
      HoldAgentTransaction,
      harness.holdRequest(harness.newOwner(), { reservation_id: request.reservation_id }),
      context,
    );
    expect(stolen).toMatchObject({ ok: false, error: { code: 'invalid_request', param: 'reservation_id' } });
    const otherEnvironment = await harness.bus.send(
      HoldAgentTransaction,
      { ...request, environment: 'live' },
      context,
    );
    expect(codeOf(otherEnvironment)).toBe('invalid_request');
  });

  it('lists only the owner’s pending transactions of the environment, soonest-expiring first, with the owner’s ciphertext', async () => {
    const parties = harness.newOwner();
    const later = await harness.held(parties, { approval_window_minutes: 90 });
    const sooner = await harness.held(parties, { approval_window_minutes: 10 });
    const middle = await harness.held(parties, {
      approval_window_minutes: 30,
      asset: 'SOL',
      to: 'x.shop.io',
    });
    await harness.held(parties, { environment: 'live' });
    await harness.heldExpiringIn(-1_000, parties);
    const rejected = await harness.held(parties);
    expect(codeOf(await harness.reject(parties.owner.account_id, rejected.id))).toBe('ok');
    await harness.held(); // another owner's

    const pending = await harness.pending(parties.owner.account_id);
    expect(pending.map((p) => p.transaction_id)).toEqual([sooner.id, middle.id, later.id]);
    expect(pending[1]).toEqual({
      transaction_id: middle.id,
      agent: parties.agent.handle,
      to: 'x.shop.io',
      asset: 'SOL',
      requested_at: middle.held.requested_at,
      expires_at: middle.held.expires_at,
      encrypted_amount: middle.request.owner_encrypted_amount,
      x402: null,
    });
    expect(await harness.pending(parties.owner.account_id, 'live')).toHaveLength(1);
    expect(await harness.pending(parties.agent.account_id)).toEqual([]);
    expect(
      await harness.bus.send(
        ListPendingApprovals,
        { owner_account_id: 'acct_nobody', environment: 'test' },
        context,
      ),
    ).toEqual({ ok: true, value: { pending: [] } });
  });
});
