import { agentsBehaviour } from './support/agents.behaviour';
import { foundationBehaviour } from './support/foundation.behaviour';
import { type DistributedStack, startDistributedStack } from './support/distributed-stack';
import { transfersBehaviour } from './support/transfers.behaviour';

describe('distributed mode: every app its own process over Kafka, PostgreSQL and Redis', () => {
  let running: DistributedStack;

  beforeAll(async () => {
    running = await startDistributedStack();
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
  }, 60_000);

  const stack = () => ({ baseUrl: running.stack.gatewayUrl, adminToken: running.secrets.ADMIN_TOKEN ?? '' });
  foundationBehaviour(stack);
  transfersBehaviour(stack);
  agentsBehaviour(stack);

  it('stops every app cleanly on SIGTERM', async () => {
    const service = running.stack.processes.find((p) => p.app === 'webhook-dispatcher');
    expect(await service?.stop()).toBe(0);
  });
});
