import { createDistributedRuntime, loadConfig, runMain } from '@cts/platform';
import { start } from './transfer-service';

runMain(async () => [await start(createDistributedRuntime(loadConfig(), 'transfer-service'))]);
