import { type Runtime, type ServiceDefinition, startService } from '@cts/platform';
import { migrations } from './migrations';

export const webhookDispatcher: ServiceDefinition = {
  name: 'webhook-dispatcher',
  schema: 'webhooks',
  entities: [],
  migrations,
  imports: [],
};

export const start = (runtime: Runtime) => startService(webhookDispatcher, runtime);
