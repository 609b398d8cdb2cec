import { createDistributedRuntime, loadConfig, runMain } from '@cts/platform';
import { start } from './account-service';

runMain(async () => [await start(createDistributedRuntime(loadConfig(), 'account-service'))]);
