import { CreateAgent, createEnvelope, GetSpendPolicy, ListAgents, UpdateSpendPolicy } from '@cts/contracts';
import { pendingSchemaChanges } from '@cts/persistence';
import { eventually } from '@cts/testing';
import { AgentPolicyHarness, context } from '../testing/agent-policy-harness';

describe('agent-policy-service agents and policies on a real PostgreSQL', () => {
  const harness = new AgentPolicyHarness();
  const limits = { daily_limit_usdc: 500, per_transaction_limit_usdc: 100 };

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  it('migrates to exactly what the entities describe (no schema drift)', async () => {
    expect(await pendingSchemaChanges(harness.dataSource)).toEqual([]);
  });

  it('creates an agent with a defaulted policy and publishes agent.created through the outbox', async () => {
    const owner = harness.newOwner();
    const request = harness.createRequest(owner, 'payroll', limits);
    const created = await harness.bus.send(CreateAgent, request, context);
    expect(created).toEqual({
      ok: true,
      value: {
        account_id: request.agent_account_id,
        handle: `${owner.handle}/payroll`,
        public_key: request.addresses.test,
        status: 'active',
        spend_policy_id: expect.stringMatching(/^pol_/),
        owner_account_id: owner.account_id,
        created_at: expect.any(String),
      },
    });
    if (!created.ok) return;
    const policy = await harness.bus.send(
      GetSpendPolicy,
      {
        caller_account_id: owner.account_id,
        agent_account_id: request.agent_account_id,
        environment: 'test',
      },
      context,
    );
    expect(policy).toEqual({
      ok: true,
      value: {
        policy_id: created.value.spend_policy_id,
        daily_limit_usdc: 500,
        per_transaction_limit_usdc: 100,
        allowed_recipients: ['*'],
        assets: ['USDC'],
        active_hours: null,
        timezone: 'UTC',
        hitl_threshold_usdc: null,
        approval_window_minutes: 60,
        updated_at: expect.any(String),
      },
    });
    await eventually(() =>
      expect(
        harness.published.find(
          (e) =>
            e.type === 'agent.created' &&
            (e as unknown as { environment: string }).environment === 'test' &&
            (e.payload.agent as { account_id: string }).account_id === request.agent_account_id,
        )?.payload,
      ).toEqual({
        agent: { account_id: request.agent_account_id, handle: `${owner.handle}/payroll` },
        owner: { account_id: owner.account_id, handle: owner.handle },
        spend_policy_id: created.value.spend_policy_id,
        created_at: created.value.created_at,
      }),
    );
  });

  it('lists only the owner’s agents, oldest first', async () => {
    const owner = harness.newOwner('personal');
    const other = harness.newOwner();
    const first = await harness.bus.send(CreateAgent, harness.createRequest(owner, 'first', limits), context);
    const second = await harness.bus.send(
      CreateAgent,
      harness.createRequest(owner, 'second', limits),
      context,
    );
    await harness.bus.send(CreateAgent, harness.createRequest(other, 'first', limits), context);
    const listed = await harness.bus.send(
      ListAgents,
      { owner_account_id: owner.account_id, environment: 'test' },
      context,
    );
    expect(listed.ok && listed.value.agents.map((a) => a.handle)).toEqual([
      `${owner.handle}/first`,
      `${owner.handle}/second`,
    ]);
    expect(listed.ok && listed.value.agents).toEqual([first.ok && first.value, second.ok && second.value]);
    expect(
      await harness.bus.send(ListAgents, { owner_account_id: 'acct_nobody', environment: 'test' }, context),
    ).toEqual({
      ok: true,
      value: { agents: [] },
    });
  });

  it('refuses an agent as owner, a handle not under the owner, and a name the owner already uses (also racing)', async () => {
    const owner = harness.newOwner();
    const asAgent = await harness.bus.send(
      CreateAgent,
      harness.createRequest({ ...owner, type: 'agent' }, 'sub', limits),
      context,
    );
    expect(asAgent).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: 'an agent cannot create agents' },
    });
    const wrongHandle = await harness.bus.send(
      CreateAgent,
      { ...harness.createRequest(owner, 'bot', limits), handle: '@someone/bot' },
      context,
    );
    expect(wrongHandle).toMatchObject({ ok: false, error: { code: 'invalid_request', param: 'handle' } });
    const results = await Promise.all([
      harness.bus.send(CreateAgent, harness.createRequest(owner, 'twin', limits), context),
      harness.bus.send(CreateAgent, harness.createRequest(owner, 'twin', limits), context),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.error.code)).toEqual(['handle_taken']);
    const later = await harness.bus.send(CreateAgent, harness.createRequest(owner, 'twin', limits), context);
    expect(later).toMatchObject({ ok: false, error: { code: 'handle_taken', param: 'name' } });
  });

  it.each([
    [{ per_transaction_limit_usdc: 1 }, 'spend_policy.daily_limit_usdc'],
    [{ ...limits, daily_limit_usdc: -1 }, 'spend_policy.daily_limit_usdc'],
    [{ daily_limit_usdc: 10, per_transaction_limit_usdc: 20 }, 'spend_policy.per_transaction_limit_usdc'],
    [{ ...limits, allowed_recipients: ['*.'] }, 'spend_policy.allowed_recipients'],
    [{ ...limits, assets: ['DOGE'] }, 'spend_policy.assets'],
    [{ ...limits, timezone: 'Mars/Olympus' }, 'spend_policy.timezone'],
    [{ ...limits, colour: 'blue' }, 'spend_policy.colour'],
  ])('refuses the policy %j with invalid_policy on %s, storing nothing', async (policy, param) => {
    const owner = harness.newOwner();
    const result = await harness.bus.send(CreateAgent, harness.createRequest(owner, 'bot', policy), context);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_policy', param } });
    expect(
      await harness.bus.send(
        ListAgents,
        { owner_account_id: owner.account_id, environment: 'test' },
        context,
      ),
    ).toEqual({
      ok: true,
      value: { agents: [] },
    });
  });

  it('gives a redelivered creation its first reply and no second agent', async () => {
    const owner = harness.newOwner();
    const envelope = createEnvelope(
      CreateAgent.topic,
      1,
      CreateAgent.request.parse(harness.createRequest(owner, 'once', limits)),
      context,
    );
    const first = (await harness.rawBus.request(CreateAgent.topic, envelope)) as { payload: unknown };
    const second = (await harness.rawBus.request(CreateAgent.topic, envelope)) as { payload: unknown };
    expect(second.payload).toEqual(first.payload);
    const [{ count }] = await harness.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM agents.agents WHERE owner_account_id = $1`,
      [owner.account_id],
    );
    expect(count).toBe(1);
  });

  it('shows the policy to the owner only: the agent itself and strangers get not_agent_owner', async () => {
    const { agent, owner } = await harness.agentWith(limits);
    const get = (caller: string, agentId = agent.account_id) =>
      harness.bus.send(
        GetSpendPolicy,
        { caller_account_id: caller, agent_account_id: agentId, environment: 'test' },
        context,
      );
    expect((await get(owner.account_id)).ok).toBe(true);
    expect(await get(agent.account_id)).toMatchObject({ ok: false, error: { code: 'not_agent_owner' } });
    expect(await get('acct_stranger')).toMatchObject({ ok: false, error: { code: 'not_agent_owner' } });
    expect(await get(owner.account_id, 'acct_unknown')).toMatchObject({
      ok: false,
      error: { code: 'agent_not_found' },
    });
  });

  it('updates only the given fields, validates the merged policy and emits agent.policy.updated with field names only', async () => {
    const { agent, owner } = await harness.agentWith({ ...limits, hitl_threshold_usdc: 50 });
    const update = (patch: Record<string, unknown>, caller = owner.account_id) =>
      harness.bus.send(
        UpdateSpendPolicy,
        { caller_account_id: caller, agent_account_id: agent.account_id, environment: 'test', patch },
        context,
      );
    const before = await harness.bus.send(
      GetSpendPolicy,
      { caller_account_id: owner.account_id, agent_account_id: agent.account_id, environment: 'test' },
      context,
    );
    if (!before.ok) throw new Error('setup failed');

    const updated = await update({
      per_transaction_limit_usdc: 250.5,
      allowed_recipients: ['*.shop.io'],
      active_hours: '08:00-20:00',
    });
    expect(updated).toEqual({
      ok: true,
      value: {
        ...before.value,
        per_transaction_limit_usdc: 250.5,
        allowed_recipients: ['*.shop.io'],
        active_hours: '08:00-20:00',
        updated_at: expect.any(String),
      },
    });
    if (!updated.ok) return;
    expect(updated.value.updated_at > before.value.updated_at).toBe(true);

    const [row] = await harness.query<{ envelope: { type: string; payload: Record<string, unknown> } }>(
      `SELECT envelope FROM agents.outbox WHERE key = $1 AND envelope->>'type' = 'agent.policy.updated'`,
      [agent.account_id],
    );
    expect(row.envelope.payload).toEqual({
      agent: { account_id: agent.account_id, handle: agent.handle },
      owner: { account_id: owner.account_id, handle: owner.handle },
      policy_id: agent.spend_policy_id,
      changed_fields: ['per_transaction_limit_usdc', 'allowed_recipients', 'active_hours'],
      updated_at: updated.value.updated_at,
    });
    expect(JSON.stringify(row.envelope)).not.toContain('250.5');
    await eventually(() =>
      expect(
        harness.published.filter(
          (e) => e.type === 'agent.policy.updated' && e.payload.policy_id === agent.spend_policy_id,
        ),
      ).toHaveLength(1),
    );

    expect(await update({ daily_limit_usdc: 200 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_policy', param: 'daily_limit_usdc' },
    });
    expect(await update({ hitl_threshold_usdc: -1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_policy', param: 'hitl_threshold_usdc' },
    });
    expect(await update({ policy_id: 'pol_mine' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_policy', param: 'policy_id' },
    });
    expect(await update({ daily_limit_usdc: 1000 }, agent.account_id)).toMatchObject({
      ok: false,
      error: { code: 'not_agent_owner' },
    });
    expect(
      await harness.bus.send(
        UpdateSpendPolicy,
        {
          caller_account_id: owner.account_id,
          agent_account_id: 'acct_unknown',
          environment: 'test',
          patch: {},
        },
        context,
      ),
    ).toMatchObject({
      ok: false,
      error: { code: 'agent_not_found' },
    });
    const after = await harness.bus.send(
      GetSpendPolicy,
      { caller_account_id: owner.account_id, agent_account_id: agent.account_id, environment: 'test' },
      context,
    );
    expect(after).toEqual(updated);
  });

  it('returns the policy unchanged, without an event, for an empty patch or one that changes nothing', async () => {
    const { agent, owner } = await harness.agentWith(limits);
    const update = (patch: Record<string, unknown>) =>
      harness.bus.send(
        UpdateSpendPolicy,
        {
          caller_account_id: owner.account_id,
          agent_account_id: agent.account_id,
          environment: 'test',
          patch,
        },
        context,
      );
    const before = await harness.bus.send(
      GetSpendPolicy,
      { caller_account_id: owner.account_id, agent_account_id: agent.account_id, environment: 'test' },
      context,
    );
    expect(await update({})).toEqual(before);
    expect(await update({ daily_limit_usdc: 500, timezone: 'utc', assets: ['usdc'] })).toEqual(before);
    const [{ count }] = await harness.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM agents.outbox WHERE key = $1 AND envelope->>'type' = 'agent.policy.updated'`,
      [agent.account_id],
    );
    expect(count).toBe(0);
  });
});
