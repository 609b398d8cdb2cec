import { loadConfig } from '@cts/platform';
import { createDistributedRuntime, runMain } from '@cts/runtime';
import { start } from './account-service';

runMain(async () => [await start(createDistributedRuntime(loadConfig(), 'account-service'))]);
