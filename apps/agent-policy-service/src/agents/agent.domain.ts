import {
  type AccountType,
  type Agent,
  type AgentStatus,
  type Environment,
  type PartyRef,
} from '@cts/contracts';

export interface AgentState {
  accountId: string;
  ownerAccountId: string;
  ownerHandle: string;
  name: string;
  handle: string;
  /** The agent's address on each ledger (null: created before both were kept here). */
  addresses: Record<Environment, string | null>;
  status: AgentStatus;
  createdAt: Date;
}

/** The agent as seen from `environment`: that ledger's address and that environment's policy. */
export function toAgentResource(
  agent: AgentState,
  environment: Environment,
  spendPolicyId: string,
): Omit<Agent, 'public_key'> & { public_key: string | null } {
  return {
    account_id: agent.accountId,
    handle: agent.handle,
    public_key: agent.addresses[environment],
    status: agent.status,
    spend_policy_id: spendPolicyId,
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
