import { CreateAgent, EvaluateAgentSpend, UpdateSpendPolicy } from './agent.commands';

const createRequest = {
  owner: { account_id: 'acct_owner', handle: '@acme', type: 'business' },
  agent_account_id: 'acct_agent',
  name: 'payroll',
  handle: '@acme/payroll',
  addresses: { live: 'LiveKey111', test: 'TestKey111' },
  spend_policy: {
    daily_limit_usdc: 100,
    per_transaction_limit_usdc: 10,
    anything: 'is checked by the service',
  },
};

describe('agent contracts', () => {
  it('carries the raw spend policy to the service, unknown fields included', () => {
    expect(CreateAgent.request.parse(createRequest).spend_policy).toEqual(createRequest.spend_policy);
    expect(
      UpdateSpendPolicy.request.safeParse({
        caller_account_id: 'a',
        agent_account_id: 'b',
        environment: 'live',
        patch: {},
      }).success,
    ).toBe(true);
  });

  it('names the environment of a policy read or change, and both addresses at creation', () => {
    expect(
      UpdateSpendPolicy.request.safeParse({ caller_account_id: 'a', agent_account_id: 'b', patch: {} })
        .success,
    ).toBe(false);
    expect(
      CreateAgent.request.safeParse({ ...createRequest, addresses: { live: 'LiveKey111' } }).success,
    ).toBe(false);
  });

  it.each([
    { name: 'Payroll' },
    { name: 'a'.repeat(33) },
    { name: 'pay.roll' },
    { handle: '@acme_payroll' },
    { handle: 'acme/payroll' },
    { owner: { account_id: 'acct_owner', handle: '@acme', type: 'robot' } },
    { spend_policy: [] },
  ])('refuses a creation with %j', (override) => {
    expect(CreateAgent.request.safeParse({ ...createRequest, ...override }).success).toBe(false);
  });

  it('replies to an evaluation with a decision and never an amount', () => {
    const reply = {
      decision: 'hold',
      agent: { account_id: 'a', handle: '@acme/bot' },
      owner: { account_id: 'o', handle: '@acme' },
      approval_window_minutes: 60,
      policy_id: 'pol_1',
    };
    expect(EvaluateAgentSpend.response.parse(reply)).toEqual(reply);
    expect(EvaluateAgentSpend.response.parse({ decision: 'not_agent' })).toEqual({ decision: 'not_agent' });
    expect(EvaluateAgentSpend.response.safeParse({ decision: 'deny' }).success).toBe(false);
    expect(Object.keys(EvaluateAgentSpend.request.shape)).not.toContain('amount');
  });

  it('requires the environment and a sealed amount on an evaluation', () => {
    const request = {
      agent_account_id: 'a',
      environment: 'test',
      reservation_id: 'tr_1',
      to: '@bob',
      asset: 'USDC',
      sealed_amount: 's1.x',
      mode: 'attempt',
    };
    expect(EvaluateAgentSpend.request.safeParse(request).success).toBe(true);
    expect(EvaluateAgentSpend.request.safeParse({ ...request, environment: undefined }).success).toBe(false);
    expect(EvaluateAgentSpend.request.safeParse({ ...request, mode: 'approve' }).success).toBe(false);
    expect(EvaluateAgentSpend.request.safeParse({ ...request, at: 'yesterday' }).success).toBe(false);
  });
});
