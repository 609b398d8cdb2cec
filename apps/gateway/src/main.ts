import { createDistributedRuntime, loadConfig, runMain } from '@cts/platform';
import { startGateway } from './gateway.app';

runMain(async () => [await startGateway(createDistributedRuntime(loadConfig(), 'gateway'))]);
