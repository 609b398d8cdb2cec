import { GetOwnSpendPolicy, GetSpendPolicy } from '@cts/contracts';
import { AgentPolicyHarness, context } from '../testing/agent-policy-harness';

describe('agent-policy-service: an agent reads its own spend policy (real PostgreSQL)', () => {
  const harness = new AgentPolicyHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  it('gives the agent exactly the policy its owner reads', async () => {
    const { agent, owner } = await harness.agentWith({
      daily_limit_usdc: 50,
      per_transaction_limit_usdc: 25,
      allowed_recipients: ['@shop'],
      hitl_threshold_usdc: 10,
    });
    const own = await harness.bus.send(
      GetOwnSpendPolicy,
      { agent_account_id: agent.account_id, environment: 'test' },
      context,
    );
    const byOwner = await harness.bus.send(
      GetSpendPolicy,
      { caller_account_id: owner.account_id, agent_account_id: agent.account_id, environment: 'test' },
      context,
    );
    expect(own).toEqual(byOwner);
    expect(own).toMatchObject({
      ok: true,
      value: { per_transaction_limit_usdc: 25, allowed_recipients: ['@shop'], hitl_threshold_usdc: 10 },
    });
  });

  it('answers agent_not_found for an account that is not an agent', async () => {
    const reply = await harness.bus.send(
      GetOwnSpendPolicy,
      { agent_account_id: harness.newOwner().account_id, environment: 'test' },
      context,
    );
    expect(reply).toMatchObject({ ok: false, error: { code: 'agent_not_found' } });
  });
});
