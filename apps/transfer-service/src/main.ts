import { loadConfig } from '@cts/platform';
import { createDistributedRuntime, runMain } from '@cts/runtime';
import { start } from './transfer-service';

runMain(async () => [await start(createDistributedRuntime(loadConfig(), 'transfer-service'))]);
