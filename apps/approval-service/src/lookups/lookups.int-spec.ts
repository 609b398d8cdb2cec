import { GetAgentTransaction, ListAgentTransactions, type RequestOf } from '@cts/contracts';
import { ApprovalHarness, codeOf, context } from '../testing/approval-harness';

describe('approval-service: reading held agent transactions on a real PostgreSQL', () => {
  const harness = new ApprovalHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  const get = (caller: string, id: string, environment: 'test' | 'live' = 'test') =>
    harness.bus.send(
      GetAgentTransaction,
      { caller_account_id: caller, environment, transaction_id: id },
      context,
    );

  const list = async (
    request: Partial<RequestOf<typeof ListAgentTransactions>> & {
      caller_account_id: string;
      agent_account_id: string;
    },
  ) => {
    const reply = await harness.bus.send(
      ListAgentTransactions,
      { environment: 'test', limit: 20, ...request },
      context,
    );
    if (!reply.ok) {
      throw new Error(reply.error.message);
    }
    return reply.value;
  };

  it('shows a transaction to its owner with the encrypted amount, to the agent without, and to nobody else', async () => {
    const { owner, agent, id, request, held } = await harness.held();
    const forOwner = await get(owner.account_id, id);
    expect(forOwner).toEqual({
      ok: true,
      value: {
        transaction_id: id,
        status: 'pending_approval',
        agent: agent.handle,
        to: request.to,
        asset: 'USDC',
        requested_at: held.requested_at,
        expires_at: held.expires_at,
        decided_at: null,
        transfer_id: null,
        encrypted_amount: request.owner_encrypted_amount,
        x402: null,
      },
    });
    const forAgent = await get(agent.account_id, id);
    expect(forAgent.ok && forAgent.value).toEqual(
      forOwner.ok && { ...forOwner.value, encrypted_amount: undefined },
    );
    expect(forAgent.ok && Object.keys(forAgent.value)).not.toContain('encrypted_amount');
    expect(codeOf(await get(harness.newOwner().owner.account_id, id))).toBe('transaction_not_found');
    expect(codeOf(await get(owner.account_id, id, 'live'))).toBe('transaction_not_found');
    expect(codeOf(await get(owner.account_id, 'atx_unknown'))).toBe('transaction_not_found');
  });

  it('follows a transaction through approval to its transfer id', async () => {
    const { owner, agent, id, request } = await harness.held();
    await harness.approve(owner.account_id, id);
    const after = await get(agent.account_id, id);
    expect(after).toMatchObject({
      ok: true,
      value: { status: 'approved', transfer_id: request.reservation_id, decided_at: expect.any(String) },
    });
  });

  it('reads a pending transaction past its window as expired before the sweeper runs', async () => {
    const { agent, id } = await harness.heldExpiringIn(-1_000);
    expect(await harness.row(id)).toMatchObject({ status: 'pending_approval' });
    expect(await get(agent.account_id, id)).toMatchObject({ ok: true, value: { status: 'expired' } });
  });

  it("lists an agent's transactions newest first, by pages, by status, in the caller's environment only", async () => {
    const parties = harness.newOwner();
    const first = await harness.held(parties);
    const second = await harness.held(parties);
    const third = await harness.held(parties);
    await harness.held(parties, { environment: 'live' });
    await harness.held(harness.newOwner()); // another agent
    await harness.reject(parties.owner.account_id, second.id);
    const caller = {
      caller_account_id: parties.owner.account_id,
      agent_account_id: parties.agent.account_id,
    };

    const all = await list(caller);
    expect(all.transactions.map((t) => t.transaction_id)).toEqual([third.id, second.id, first.id]);
    expect(all.has_more).toBe(false);
    expect(all.transactions.every((t) => typeof t.encrypted_amount === 'string')).toBe(true);

    const page1 = await list({ ...caller, limit: 2 });
    expect(page1).toMatchObject({ has_more: true });
    expect(page1.transactions.map((t) => t.transaction_id)).toEqual([third.id, second.id]);
    const page2 = await list({ ...caller, limit: 2, starting_after: second.id });
    expect(page2.transactions.map((t) => t.transaction_id)).toEqual([first.id]);
    expect(page2.has_more).toBe(false);

    expect((await list({ ...caller, status: 'rejected' })).transactions.map((t) => t.transaction_id)).toEqual(
      [second.id],
    );
    expect(
      (await list({ ...caller, status: 'pending_approval' })).transactions.map((t) => t.transaction_id),
    ).toEqual([third.id, first.id]);
    expect((await list({ ...caller, environment: 'live' })).transactions).toHaveLength(1);

    const forAgent = await list({ ...caller, caller_account_id: parties.agent.account_id });
    expect(forAgent.transactions).toHaveLength(3);
    expect(forAgent.transactions.some((t) => 'encrypted_amount' in t)).toBe(false);
    const forStranger = await list({ ...caller, caller_account_id: harness.newOwner().owner.account_id });
    expect(forStranger.transactions).toEqual([]);
  });

  it('lists as expired the pending transactions whose window passed, and not as pending', async () => {
    const parties = harness.newOwner();
    const overdue = await harness.heldExpiringIn(-1_000, parties);
    const open = await harness.held(parties);
    const caller = {
      caller_account_id: parties.owner.account_id,
      agent_account_id: parties.agent.account_id,
    };
    expect((await list({ ...caller, status: 'expired' })).transactions.map((t) => t.transaction_id)).toEqual([
      overdue.id,
    ]);
    expect(
      (await list({ ...caller, status: 'pending_approval' })).transactions.map((t) => t.transaction_id),
    ).toEqual([open.id]);
  });
});
