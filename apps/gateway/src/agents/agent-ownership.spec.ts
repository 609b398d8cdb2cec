import { fail, GetSpendPolicy } from '@cts/contracts';
import { InProcessBus } from '@cts/messaging';
import request from 'supertest';
import { FakeService } from '../testing/fake-service';
import {
  bearer,
  seedAccount,
  type SeededAccount,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway';

/** agent-policy-service as far as ownership goes: `acct_agent` is nobody's here, other ids unknown. */
class FakePolicyService extends FakeService {
  constructor(bus: InProcessBus) {
    super(bus);
    this.on(GetSpendPolicy, (req) =>
      req.agent_account_id === 'acct_agent'
        ? fail('not_agent_owner', 'Only the account that owns this agent can manage its spend policy')
        : fail('agent_not_found', 'No such agent'),
    );
  }
}

describe("routes for an agent's owner that are not about its policy", () => {
  let gateway: TestGateway;
  let stranger: SeededAccount;

  beforeEach(async () => {
    const bus = new InProcessBus();
    new FakePolicyService(bus);
    gateway = await startTestGateway({ bus });
    stranger = seedAccount(gateway.accounts, '@mallory');
  });

  afterEach(async () => {
    await gateway.close();
  });

  it.each([
    [
      'get',
      '/v1/agents/acct_agent/api-keys',
      'Only the account that owns this agent can manage its API keys',
    ],
    [
      'post',
      '/v1/agents/acct_agent/api-keys',
      'Only the account that owns this agent can manage its API keys',
    ],
    [
      'delete',
      '/v1/agents/acct_agent/api-keys/key_1',
      'Only the account that owns this agent can manage its API keys',
    ],
    [
      'get',
      '/v1/agents/acct_agent/transactions',
      'Only the agent and the account that owns it can read its transactions',
    ],
  ] as const)(
    'refuses %s %s to anyone but the owner in words that fit the route',
    async (method, path, message) => {
      const res = await request(gateway.url)
        [method](path)
        .set(bearer(stranger.keys.test.secret))
        .send(method === 'post' ? { name: 'bot key' } : undefined)
        .expect(403);

      expect(res.body.error).toMatchObject({ code: 'not_agent_owner', message });
      expect(res.body.error.message).not.toContain('spend policy');
    },
  );

  it('answers an unknown agent with 404 agent_not_found, as the policy routes do', async () => {
    const res = await request(gateway.url)
      .get('/v1/agents/acct_unknown/api-keys')
      .set(bearer(stranger.keys.test.secret))
      .expect(404);

    expect(res.body.error).toMatchObject({ code: 'agent_not_found', message: 'No such agent' });
  });
});
