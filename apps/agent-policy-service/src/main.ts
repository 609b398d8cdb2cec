import { createDistributedRuntime, loadConfig, runMain } from '@cts/platform';
import { start } from './agent-policy-service';

runMain(async () => [await start(createDistributedRuntime(loadConfig(), 'agent-policy-service'))]);
