import { CreateAgentsSchema1763700000000 } from './1763700000000-create-agents-schema';
import { CreateAgentsPoliciesSpending1764000000000 } from './1764000000000-create-agents-policies-spending';
import { AgentPoliciesPerEnvironment1764500000000 } from './1764500000000-agent-policies-per-environment';

/** In order of application. A new migration is appended here. */
export const migrations = [
  CreateAgentsSchema1763700000000,
  CreateAgentsPoliciesSpending1764000000000,
  AgentPoliciesPerEnvironment1764500000000,
];
