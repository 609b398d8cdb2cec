import { createDistributedRuntime, loadConfig, runMain } from '@cts/platform';
import { start } from './approval-service';

runMain(async () => [await start(createDistributedRuntime(loadConfig(), 'approval-service'))]);
