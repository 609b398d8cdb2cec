import { decryptAmount } from '@cts/sdk';
import { http } from './http';
import { type StackUnderTest } from './foundation.behaviour';
import { account, fund, provenBalance } from './transfers.behaviour';

interface AgentBody {
  account_id: string;
  decryption_key: string;
  handle: string;
  public_key: string;
  status: string;
  spend_policy_id: string;
}

const POLICY = {
  daily_limit_usdc: 50,
  per_transaction_limit_usdc: 20,
  allowed_recipients: ['*'],
  assets: ['USDC'],
  hitl_threshold_usdc: 10,
};

/** Issue 4's behaviours (agents, policies, enforcement) and issue 5's approvals, through HTTP. */
export function agentsBehaviour(stack: () => StackUnderTest): void {
  async function ownerWithAgent(policy: Record<string, unknown> = POLICY) {
    const owner = await account(stack());
    const created = await http(stack().baseUrl, 'POST', '/v1/accounts/me/agents', {
      token: owner.token,
      body: { name: 'shopper', spend_policy: policy },
    });
    expect(created.status).toBe(201);
    const agent = created.body as AgentBody;
    const key = await http(stack().baseUrl, 'POST', `/v1/agents/${agent.account_id}/api-keys`, {
      token: owner.token,
      body: { name: 'bot' },
    });
    expect(key.status).toBe(201);
    const agentToken = (key.body as { secret: string }).secret;
    return {
      owner,
      agent,
      agentToken,
      agentAccount: { ...owner, decryption_key: agent.decryption_key, token: agentToken },
    };
  }

  it('creates an agent under its owner, with its own address, policy and keys', async () => {
    const { owner, agent, agentToken } = await ownerWithAgent();
    expect(agent).toMatchObject({ handle: `${owner.account.handle}/shopper`, status: 'active' });
    expect(agent.account_id).toMatch(/^acct_/);
    expect(agent.spend_policy_id).toMatch(/^pol_/);
    expect(agent.public_key).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const me = await http(stack().baseUrl, 'GET', '/v1/accounts/me', { token: agentToken });
    expect(me.body).toMatchObject({
      account_id: agent.account_id,
      type: 'agent',
      handle: agent.handle,
      public_key: agent.public_key,
    });
    const listed = await http(stack().baseUrl, 'GET', '/v1/accounts/me/agents', { token: owner.token });
    expect((listed.body as { agents: AgentBody[] }).agents.map((a) => a.account_id)).toEqual([
      agent.account_id,
    ]);
    const duplicate = await http(stack().baseUrl, 'POST', '/v1/accounts/me/agents', {
      token: owner.token,
      body: { name: 'shopper', spend_policy: POLICY },
    });
    expect(duplicate).toMatchObject({ status: 409, body: { error: { code: 'handle_taken' } } });
    const invalid = await http(stack().baseUrl, 'POST', '/v1/accounts/me/agents', {
      token: owner.token,
      body: { name: 'other', spend_policy: { ...POLICY, daily_limit_usdc: -1 } },
    });
    expect(invalid).toMatchObject({ status: 400, body: { error: { code: 'invalid_policy' } } });
    const byAgent = await http(stack().baseUrl, 'POST', '/v1/accounts/me/agents', {
      token: agentToken,
      body: { name: 'sub', spend_policy: POLICY },
    });
    expect(byAgent).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
  }, 60_000);

  it('lets only the owner read and change the policy; a change applies to the next transfer', async () => {
    const { owner, agent, agentToken } = await ownerWithAgent();
    const stranger = await account(stack());
    const path = `/v1/agents/${agent.account_id}/spend-policy`;
    expect((await http(stack().baseUrl, 'GET', path, { token: owner.token })).body).toMatchObject({
      policy_id: agent.spend_policy_id,
      daily_limit_usdc: 50,
    });
    for (const token of [agentToken, stranger.token]) {
      expect((await http(stack().baseUrl, 'GET', path, { token })).body).toMatchObject({
        error: { code: 'not_agent_owner' },
      });
      expect(
        (await http(stack().baseUrl, 'PATCH', path, { token, body: { daily_limit_usdc: 1 } })).status,
      ).toBe(403);
    }
    expect(
      (await http(stack().baseUrl, 'GET', '/v1/agents/acct_unknown/spend-policy', { token: owner.token }))
        .status,
    ).toBe(404);
    await fund(stack(), { ...owner, token: agentToken }, '100');
    const merchant = await account(stack());
    expect(
      (
        await http(stack().baseUrl, 'POST', '/v1/transfers', {
          token: agentToken,
          body: { to: merchant.account.handle, amount: '5' },
        })
      ).body,
    ).toMatchObject({
      status: 'confirmed',
    });
    const patched = await http(stack().baseUrl, 'PATCH', path, {
      token: owner.token,
      body: { allowed_recipients: ['*.example.com'] },
    });
    expect(patched.body).toMatchObject({ allowed_recipients: ['*.example.com'], daily_limit_usdc: 50 });
    const denied = await http(stack().baseUrl, 'POST', '/v1/transfers', {
      token: agentToken,
      body: { to: merchant.account.handle, amount: '5' },
    });
    expect(denied).toMatchObject({
      status: 403,
      body: { error: { code: 'policy_violation', reason: 'recipient_not_allowed' } },
    });
    expect(
      (
        await http(stack().baseUrl, 'PATCH', path, {
          token: owner.token,
          body: { per_transaction_limit_usdc: 60 },
        })
      ).body,
    ).toMatchObject({
      error: { code: 'invalid_policy', param: 'per_transaction_limit_usdc' },
    });
  }, 60_000);

  it('enforces limits and holds a transfer above the threshold until its owner decides', async () => {
    const { owner, agent, agentToken, agentAccount } = await ownerWithAgent();
    const merchant = await account(stack());
    await fund(stack(), agentAccount, '100');
    const send = (amount: string) =>
      http(stack().baseUrl, 'POST', '/v1/transfers', {
        token: agentToken,
        body: { to: merchant.account.handle, amount },
      });
    expect(await send('25')).toMatchObject({
      status: 403,
      body: { error: { code: 'policy_violation', reason: 'per_transaction_limit_exceeded' } },
    });
    const held = await send('15');
    expect(held).toMatchObject({
      status: 202,
      body: { status: 'pending_approval', agent: agent.handle, to: merchant.account.handle },
    });
    const transactionId = (held.body as { transaction_id: string }).transaction_id;
    expect(transactionId).toMatch(/^atx_/);
    expect(Object.keys(held.body as object).sort()).toEqual([
      'agent',
      'asset',
      'expires_at',
      'requested_at',
      'status',
      'to',
      'transaction_id',
    ]);

    const pending = await http(stack().baseUrl, 'GET', '/v1/agents/transactions/pending', {
      token: owner.token,
    });
    const item = (
      pending.body as { pending: { transaction_id: string; encrypted_amount: string }[] }
    ).pending.find((p) => p.transaction_id === transactionId);
    expect(decryptAmount(owner.decryption_key, item?.encrypted_amount ?? '', 'USDC')).toBe('15');
    expect(
      (await http(stack().baseUrl, 'GET', '/v1/agents/transactions/pending', { token: agentToken })).body,
    ).toEqual({ pending: [] });
    expect(
      (
        await http(stack().baseUrl, 'POST', `/v1/agents/transactions/${transactionId}/approve`, {
          token: agentToken,
        })
      ).body,
    ).toMatchObject({
      error: { code: 'not_agent_owner' },
    });

    const approved = await http(stack().baseUrl, 'POST', `/v1/agents/transactions/${transactionId}/approve`, {
      token: owner.token,
    });
    expect(approved).toMatchObject({ status: 200, body: { status: 'approved' } });
    const transferId = (approved.body as { transfer_id: string }).transfer_id;
    expect(
      (await http(stack().baseUrl, 'GET', `/v1/transfers/${transferId}`, { token: agentToken })).body,
    ).toMatchObject({ status: 'confirmed' });
    expect(
      (
        await http(stack().baseUrl, 'POST', `/v1/agents/transactions/${transactionId}/reject`, {
          token: owner.token,
        })
      ).body,
    ).toMatchObject({
      error: { code: 'transaction_already_decided' },
    });
    expect(await provenBalance(stack(), merchant)).toBe('15');

    const second = (await send('12')).body as { transaction_id: string };
    const rejected = await http(
      stack().baseUrl,
      'POST',
      `/v1/agents/transactions/${second.transaction_id}/reject`,
      { token: owner.token },
    );
    expect(rejected).toMatchObject({ status: 200, body: { status: 'rejected' } });
    expect(
      (
        await http(stack().baseUrl, 'POST', '/v1/agents/transactions/atx_unknown/approve', {
          token: owner.token,
        })
      ).status,
    ).toBe(404);
    // 15 reserved and spent, 12 released: 35 of the daily 50 is still available.
    expect(await send('20')).toMatchObject({ status: 202 });
    expect(await send('9')).toMatchObject({ status: 200 });
    expect(await provenBalance(stack(), agentAccount)).toBe('76');
  }, 90_000);

  it('counts the daily limit atomically under parallel transfers, releases failed ones, and checks assets and hours', async () => {
    const { agentToken, agentAccount, owner, agent } = await ownerWithAgent({
      daily_limit_usdc: 10,
      per_transaction_limit_usdc: 10,
    });
    const merchant = await account(stack());
    const send = (amount: string, asset = 'USDC') =>
      http(stack().baseUrl, 'POST', '/v1/transfers', {
        token: agentToken,
        body: { to: merchant.account.handle, amount, asset },
      });
    // Nothing funded yet: the transfer fails, and its reservation goes back.
    expect(await send('8')).toMatchObject({ status: 402, body: { error: { code: 'insufficient_balance' } } });
    await fund(stack(), agentAccount, '50');
    expect(await send('1', 'SOL')).toMatchObject({
      status: 403,
      body: { error: { code: 'policy_violation', reason: 'asset_not_allowed' } },
    });
    const parallel = await Promise.all(Array.from({ length: 6 }, () => send('3')));
    expect(parallel.map((r) => r.status).sort()).toEqual([200, 200, 200, 403, 403, 403]);
    expect(
      parallel
        .filter((r) => r.status === 403)
        .every((r) => (r.body as { error: { reason: string } }).error.reason === 'daily_limit_exceeded'),
    ).toBe(true);
    expect(await send('1')).toMatchObject({ status: 200 });
    expect(await send('1')).toMatchObject({
      status: 403,
      body: { error: { reason: 'daily_limit_exceeded' } },
    });

    const hour = new Date().getUTCHours();
    const closed = `${String((hour + 2) % 24).padStart(2, '0')}:00-${String((hour + 3) % 24).padStart(2, '0')}:00`;
    const patched = await http(stack().baseUrl, 'PATCH', `/v1/agents/${agent.account_id}/spend-policy`, {
      token: owner.token,
      body: { active_hours: closed, daily_limit_usdc: 100, per_transaction_limit_usdc: 100 },
    });
    expect(patched.status).toBe(200);
    expect(await send('1')).toMatchObject({
      status: 403,
      body: { error: { reason: 'outside_active_hours' } },
    });
    expect(await provenBalance(stack(), agentAccount)).toBe('40');
  }, 90_000);
}
