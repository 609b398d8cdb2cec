import { type AccountType, type Agent, type AgentStatus, type PartyRef } from '@cts/contracts';

export interface AgentState {
  accountId: string;
  ownerAccountId: string;
  ownerHandle: string;
  name: string;
  handle: string;
  publicKey: string;
  status: AgentStatus;
  spendPolicyId: string;
  createdAt: Date;
}

export function toAgentResource(agent: AgentState): Agent {
  return {
    account_id: agent.accountId,
    handle: agent.handle,
    public_key: agent.publicKey,
    status: agent.status,
    spend_policy_id: agent.spendPolicyId,
    owner_account_id: agent.ownerAccountId,
    created_at: agent.createdAt.toISOString(),
  };
}

export const agentRef = (agent: AgentState): PartyRef => ({
  account_id: agent.accountId,
  handle: agent.handle,
});
export const ownerRef = (agent: AgentState): PartyRef => ({
  account_id: agent.ownerAccountId,
  handle: agent.ownerHandle,
});

/** Spec §2.3: `@<owner_name>/<agent_name>`. */
export const agentHandleFor = (ownerHandle: string, name: string): string => `${ownerHandle}/${name}`;

/** Agents do not own agents: an agent's key could otherwise mint agents with looser policies. */
export const canOwnAgents = (type: AccountType): boolean => type !== 'agent';

/** Only the owner manages an agent; the agent itself is not its owner. */
export const isOwnedBy = (agent: AgentState, callerAccountId: string): boolean =>
  agent.ownerAccountId === callerAccountId;
