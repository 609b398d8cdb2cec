import { type Runtime, type ServiceDefinition, startService } from '@cts/platform';
import { migrations } from './migrations';

export const transferService: ServiceDefinition = {
  name: 'transfer-service',
  schema: 'transfers',
  entities: [],
  migrations,
  imports: [],
};

export const start = (runtime: Runtime) => startService(transferService, runtime);
