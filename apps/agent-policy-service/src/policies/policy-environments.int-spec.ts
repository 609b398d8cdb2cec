import { CreateAgent, GetSpendPolicy, ListAgents, UpdateSpendPolicy } from '@cts/contracts';
import { createServiceDataSource, runMigrations } from '@cts/persistence';
import { createTestDatabase, eventually } from '@cts/testing';
import { migrations } from '../migrations';
import { AgentPolicyHarness, context, outcome } from '../testing/agent-policy-harness';

const USDC = 1_000_000n;

/** Issue 14: test and live are separate worlds for what governs an agent's money. */
describe('agent-policy-service keeps one spend policy per environment', () => {
  const harness = new AgentPolicyHarness();
  const limits = { daily_limit_usdc: 50, per_transaction_limit_usdc: 20 };

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  async function agentWithOwner() {
    const { agent, owner } = await harness.agentWith(limits);
    const read = async (environment: 'live' | 'test') => {
      const policy = await harness.bus.send(
        GetSpendPolicy,
        { caller_account_id: owner.account_id, agent_account_id: agent.account_id, environment },
        { ...context, environment },
      );
      if (!policy.ok) throw new Error(policy.error.message);
      return policy.value;
    };
    return { agent, owner, read };
  }

  it('sets both policies from the creation request, each with its own id', async () => {
    const { agent, read } = await agentWithOwner();
    const [live, test] = [await read('live'), await read('test')];
    expect(test.policy_id).toBe(agent.spend_policy_id);
    expect(live.policy_id).not.toBe(test.policy_id);
    const { policy_id: _l, ...liveRules } = live;
    const { policy_id: _t, ...testRules } = test;
    expect(liveRules).toEqual(testRules);
    await eventually(() =>
      expect(
        harness.published
          .filter(
            (e) =>
              e.type === 'agent.created' &&
              (e.payload.agent as { account_id: string }).account_id === agent.account_id,
          )
          .map((e) => [(e as unknown as { environment: string }).environment, e.payload.spend_policy_id])
          .sort(),
      ).toEqual([
        ['live', live.policy_id],
        ['test', test.policy_id],
      ]),
    );
  });

  it('changes only the policy of the caller key’s environment, and announces it there', async () => {
    const { agent, owner, read } = await agentWithOwner();
    const liveBefore = await read('live');
    const patched = await harness.bus.send(
      UpdateSpendPolicy,
      {
        caller_account_id: owner.account_id,
        agent_account_id: agent.account_id,
        environment: 'test',
        patch: { daily_limit_usdc: 1000, per_transaction_limit_usdc: 1000 },
      },
      context,
    );
    expect(patched).toMatchObject({ ok: true, value: { daily_limit_usdc: 1000 } });
    expect(await read('live')).toEqual(liveBefore);

    // The live agent is still held to its live limits; the test agent to its test ones.
    expect(outcome(await harness.evaluate(agent, 100n * USDC, { environment: 'live' }))).toBe(
      'per_transaction_limit_exceeded',
    );
    expect(outcome(await harness.evaluate(agent, 100n * USDC, { environment: 'test' }))).toBe('allow');

    const [row] = await harness.query<{ envelope: { environment: string } }>(
      `SELECT envelope FROM agents.outbox WHERE key = $1 AND envelope->>'type' = 'agent.policy.updated'`,
      [agent.account_id],
    );
    expect(row?.envelope.environment).toBe('test');
  });

  it('lists each agent with its address and policy on the caller key’s ledger', async () => {
    const owner = harness.newOwner();
    const request = harness.createRequest(owner, 'lister', limits);
    await harness.bus.send(CreateAgent, request, context);
    const listIn = async (environment: 'live' | 'test') => {
      const listed = await harness.bus.send(
        ListAgents,
        { owner_account_id: owner.account_id, environment },
        { ...context, environment },
      );
      return listed.ok ? listed.value.agents[0] : undefined;
    };
    const [live, test] = [await listIn('live'), await listIn('test')];
    expect(live?.public_key).toBe(request.addresses.live);
    expect(test?.public_key).toBe(request.addresses.test);
    expect(live?.spend_policy_id).not.toBe(test?.spend_policy_id);
  });
});

describe('the migration to per-environment policies', () => {
  it('gives an existing agent a live policy and an equal test policy, and keeps the schema free of drift', async () => {
    const db = await createTestDatabase();
    const dataSource = createServiceDataSource({
      schema: 'agents',
      url: db.url,
      entities: [],
      migrations: migrations.slice(0, 2),
    });
    try {
      await runMigrations(dataSource, 'agents');
      await dataSource.initialize();
      await dataSource.query(
        `INSERT INTO agents.agents (account_id, owner_account_id, owner_handle, name, handle, public_key, status, spend_policy_id) VALUES ('acct_a', 'acct_o', '@owner', 'bot', '@owner/bot', 'Addr1', 'active', 'pol_old')`,
      );
      await dataSource.query(
        `INSERT INTO agents.spend_policies (id, agent_account_id, daily_limit_micros, per_transaction_limit_micros, allowed_recipients, assets, timezone, approval_window_minutes, updated_at) VALUES ('pol_old', 'acct_a', 5000000, 1000000, '{*}', '{USDC}', 'UTC', 60, now())`,
      );
      await dataSource.destroy();
      const upgraded = createServiceDataSource({ schema: 'agents', url: db.url, entities: [], migrations });
      await runMigrations(upgraded, 'agents');
      await upgraded.initialize();
      const rows = await upgraded.query<{ id: string; environment: string; daily_limit_micros: string }[]>(
        `SELECT id, environment, daily_limit_micros FROM agents.spend_policies WHERE agent_account_id = 'acct_a' ORDER BY environment`,
      );
      await upgraded.destroy();
      expect(rows).toEqual([
        { id: 'pol_old', environment: 'live', daily_limit_micros: '5000000' },
        { id: expect.stringMatching(/^pol_/), environment: 'test', daily_limit_micros: '5000000' },
      ]);
      expect(rows[1]?.id).not.toBe('pol_old');
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await db.drop();
    }
  });
});
