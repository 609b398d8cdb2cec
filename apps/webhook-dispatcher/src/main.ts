import { createDistributedRuntime, loadConfig, runMain } from '@cts/platform';
import { start } from './webhook-dispatcher';

runMain(async () => [await start(createDistributedRuntime(loadConfig(), 'webhook-dispatcher'))]);
