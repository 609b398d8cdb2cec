import { agentHandleFor, canOwnAgents, isOwnedBy, toAgentResource, type AgentState } from './agent.domain';

const agent: AgentState = {
  accountId: 'acct_agent',
  ownerAccountId: 'acct_owner',
  ownerHandle: '@acme',
  name: 'payroll',
  handle: '@acme/payroll',
  addresses: { live: 'LiveKey111', test: 'TestKey111' },
  status: 'active',
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
};

describe('agents', () => {
  it('shows the agent resource of spec §2.3 with its owner and creation time', () => {
    expect(toAgentResource(agent, 'live', 'pol_1')).toEqual({
      account_id: 'acct_agent',
      handle: '@acme/payroll',
      public_key: 'LiveKey111',
      status: 'active',
      spend_policy_id: 'pol_1',
      owner_account_id: 'acct_owner',
      created_at: '2026-01-02T03:04:05.678Z',
    });
  });

  it("shows the address on the caller key's ledger", () => {
    expect(toAgentResource(agent, 'test', 'pol_2')).toMatchObject({
      public_key: 'TestKey111',
      spend_policy_id: 'pol_2',
    });
    expect(
      toAgentResource({ ...agent, addresses: { live: 'LiveKey111', test: null } }, 'test', 'pol_2')
        .public_key,
    ).toBeNull();
  });

  it('namespaces the handle under the owner', () => {
    expect(agentHandleFor('@acme', 'payroll')).toBe('@acme/payroll');
  });

  it('lets personal and business accounts own agents, not agents', () => {
    expect(canOwnAgents('personal')).toBe(true);
    expect(canOwnAgents('business')).toBe(true);
    expect(canOwnAgents('agent')).toBe(false);
  });

  it('treats only the owner as the owner, not the agent itself', () => {
    expect(isOwnedBy(agent, 'acct_owner')).toBe(true);
    expect(isOwnedBy(agent, 'acct_agent')).toBe(false);
    expect(isOwnedBy(agent, 'acct_other')).toBe(false);
  });
});
