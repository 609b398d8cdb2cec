import { loadConfig } from '@cts/platform';
import { createDistributedRuntime, runMain } from '@cts/runtime';
import { startGateway } from './gateway.app';

runMain(async () => [await startGateway(createDistributedRuntime(loadConfig(), 'gateway'))]);
