import { loadConfig } from '@cts/platform';
import { createDistributedRuntime, runMain } from '@cts/runtime';
import { start } from './webhook-dispatcher';

runMain(async () => [await start(createDistributedRuntime(loadConfig(), 'webhook-dispatcher'))]);
