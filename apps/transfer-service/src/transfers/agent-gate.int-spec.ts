import { type AccountParty, fail } from '@cts/contracts';
import { codeOf, TransferHarness } from '../testing/transfer-harness';

// An agent's transfer passes its spend policy (agent-policy-service, faked) before anything is signed.
jest.setTimeout(120_000);

const USDC = 1_000_000n;

describe('transfer-service: the agent gate', () => {
  const harness = new TransferHarness();
  let owner: AccountParty;
  let agent: AccountParty;
  let shop: AccountParty;

  beforeAll(async () => {
    await harness.start();
    owner = await harness.openAccount({ type: 'business' });
    agent = await harness.openAgent(owner);
    shop = await harness.openAccount({ type: 'business' });
    await harness.fund(agent, 5n * USDC);
  });

  afterEach(() => {
    harness.peers.policies.decide = null;
  });

  afterAll(() => harness.stop());

  it('settles an allowed agent transfer under the id the policy reserved', async () => {
    const result = await harness.send(agent, shop.handle, USDC);

    if (!result.ok || result.value.kind !== 'transfer') {
      throw new Error(`expected a transfer, got ${JSON.stringify(result)}`);
    }
    const [evaluation] = harness.peers.policies.evaluations.slice(-1);
    expect(evaluation?.payload).toMatchObject({ agent_account_id: agent.account_id, mode: 'attempt' });
    expect(result.value.transfer.transfer_id).toBe(evaluation?.payload.reservation_id);
    expect(result.value.transfer.status).toBe('confirmed');
  });

  it('stops a transfer the policy denies with its violation, recording nothing', async () => {
    harness.peers.policies.decide = () =>
      fail('policy_violation', 'too much', { reason: 'per_transaction_limit_exceeded' });
    const before = (await harness.rowsOf(agent)).length;

    const result = await harness.send(agent, shop.handle, USDC);

    expect(result.ok || result.error.reason).toBe('per_transaction_limit_exceeded');
    expect(await harness.rowsOf(agent)).toHaveLength(before);
  });

  it('holds a transfer above the threshold for the owner: nothing moves, the owner gets its own ciphertext', async () => {
    harness.peers.policies.decide = (request) => harness.peers.policies.allow(request, 'hold');
    const before = (await harness.rowsOf(agent)).length;

    const result = await harness.send(agent, shop.handle, USDC);

    expect(result.ok && result.value.kind).toBe('held');
    const [hold] = harness.peers.approvals.holds.slice(-1);
    expect(hold?.payload).toMatchObject({
      owner: { account_id: owner.account_id },
      to: shop.handle,
      x402: null,
    });
    expect(hold?.payload.owner_encrypted_amount).toEqual(expect.any(String));
    expect(await harness.rowsOf(agent)).toHaveLength(before);
  });

  it('gives the reservation back when the approval queue refuses the hold', async () => {
    harness.peers.policies.decide = (request) => harness.peers.policies.allow(request, 'hold');
    harness.peers.approvals.respond = () => fail('service_unavailable', 'approval-service is down');
    try {
      const result = await harness.send(agent, shop.handle, USDC);
      expect(codeOf(result)).toBe('service_unavailable');
      const [evaluation] = harness.peers.policies.evaluations.slice(-1);
      expect(harness.peers.policies.releasesOf(evaluation?.payload.reservation_id ?? '')).toBe(1);
    } finally {
      harness.peers.approvals.respond = null;
    }
  });

  it('gives the reservation back when the agent cannot pay', async () => {
    const result = await harness.send(agent, shop.handle, 500n * USDC);

    expect(codeOf(result)).toBe('insufficient_balance');
    const [evaluation] = harness.peers.policies.evaluations.slice(-1);
    expect(harness.peers.policies.releasesOf(evaluation?.payload.reservation_id ?? '')).toBe(1);
  });

  it('refuses a memo over its byte limit before anything is reserved (400 CJK-sized, not a 500 after)', async () => {
    const evaluations = harness.peers.policies.evaluations.length;
    const result = await harness.send(agent, shop.handle, USDC, {
      sealed_memo: harness.sealMemo(agent.account_id, '漢'.repeat(400)),
    });

    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request', param: 'memo' } });
    expect(harness.peers.policies.evaluations).toHaveLength(evaluations);
  });
});
