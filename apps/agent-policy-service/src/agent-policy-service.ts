import { type Runtime, type ServiceDefinition, startService } from '@cts/platform';
import { migrations } from './migrations';

export const agentPolicyService: ServiceDefinition = {
  name: 'agent-policy-service',
  schema: 'agents',
  entities: [],
  migrations,
  imports: [],
};

export const start = (runtime: Runtime) => startService(agentPolicyService, runtime);
