import { type Runtime, type ServiceDefinition, startService } from '@cts/platform';
import { migrations } from './migrations';

export const approvalService: ServiceDefinition = {
  name: 'approval-service',
  schema: 'approvals',
  entities: [],
  migrations,
  imports: [],
};

export const start = (runtime: Runtime) => startService(approvalService, runtime);
