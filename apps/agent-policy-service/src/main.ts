import { loadConfig } from '@cts/platform';
import { createDistributedRuntime, runMain } from '@cts/runtime';
import { start } from './agent-policy-service';

runMain(async () => [await start(createDistributedRuntime(loadConfig(), 'agent-policy-service'))]);
