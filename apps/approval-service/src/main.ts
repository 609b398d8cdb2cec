import { loadConfig } from '@cts/platform';
import { createDistributedRuntime, runMain } from '@cts/runtime';
import { start } from './approval-service';

runMain(async () => [await start(createDistributedRuntime(loadConfig(), 'approval-service'))]);
