import { type Runtime, type ServiceDefinition, startService } from '@cts/runtime';
import { AgentPolicyModule } from './agent-policy.module';
import { AgentEntity } from './agents/agent.entity';
import { migrations } from './migrations';
import { SpendPolicyEntity } from './policies/spend-policy.entity';
import { SpendDailyTotalEntity, SpendReservationEntity } from './spending/spend-reservation.entity';

export const agentPolicyService: ServiceDefinition = {
  name: 'agent-policy-service',
  schema: 'agents',
  entities: [AgentEntity, SpendPolicyEntity, SpendReservationEntity, SpendDailyTotalEntity],
  migrations,
  imports: [AgentPolicyModule],
};

export const start = (runtime: Runtime) => startService(agentPolicyService, runtime);
