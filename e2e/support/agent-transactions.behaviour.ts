import { decryptAmount } from '@cts/sdk';
import { http } from './http';
import { type StackUnderTest } from './foundation.behaviour';
import { account, fund } from './transfers.behaviour';

const POLICY = { daily_limit_usdc: 1000, per_transaction_limit_usdc: 100, hitl_threshold_usdc: 1 };

interface TransactionBody {
  transaction_id: string;
  status: string;
  agent: string;
  to: string;
  asset: string;
  requested_at: string;
  expires_at: string;
  decided_at: string | null;
  transfer_id: string | null;
  encrypted_amount?: string;
}

/** Issue 16 "Agent transactions can be followed", through HTTP, the same in both modes. */
export function agentTransactionsBehaviour(stack: () => StackUnderTest): void {
  async function agentWithHolds(amounts: string[]) {
    const owner = await account(stack());
    const created = await http(stack().baseUrl, 'POST', '/v1/accounts/me/agents', {
      token: owner.token,
      body: { name: 'follower', spend_policy: POLICY },
    });
    const agent = created.body as { account_id: string; handle: string; decryption_key: string };
    const key = await http(stack().baseUrl, 'POST', `/v1/agents/${agent.account_id}/api-keys`, {
      token: owner.token,
      body: { name: 'bot' },
    });
    const agentAccount = {
      ...owner,
      decryption_key: agent.decryption_key,
      token: (key.body as { secret: string }).secret,
    };
    const merchant = await account(stack());
    await fund(stack(), agentAccount, '100');
    const held: TransactionBody[] = [];
    for (const amount of amounts) {
      const response = await http(stack().baseUrl, 'POST', '/v1/transfers', {
        token: agentAccount.token,
        body: { to: merchant.account.handle, amount },
      });
      expect(response.status).toBe(202);
      held.push(response.body as TransactionBody);
    }
    return { owner, agent, agentToken: agentAccount.token, merchant, held };
  }

  const get = (token: string, id: string) =>
    http(stack().baseUrl, 'GET', `/v1/agents/transactions/${id}`, { token });

  it('lets the agent and its owner follow a held transaction to its transfer; anyone else gets 404', async () => {
    const { owner, agent, agentToken, held } = await agentWithHolds(['7.5']);
    const id = held[0]?.transaction_id ?? '';

    const byAgent = await get(agentToken, id);
    expect(byAgent).toMatchObject({
      status: 200,
      body: {
        transaction_id: id,
        status: 'pending_approval',
        agent: agent.handle,
        decided_at: null,
        transfer_id: null,
      },
    });
    expect(byAgent.body).not.toHaveProperty('encrypted_amount');
    const byOwner = await get(owner.token, id);
    expect(byOwner.status).toBe(200);
    const ownerView = byOwner.body as TransactionBody;
    expect(ownerView).toMatchObject({ requested_at: held[0]?.requested_at, expires_at: held[0]?.expires_at });
    expect(decryptAmount(owner.decryption_key, ownerView.encrypted_amount ?? '', 'USDC')).toBe('7.5');

    const stranger = await account(stack());
    expect(await get(stranger.token, id)).toMatchObject({
      status: 404,
      body: { error: { code: 'transaction_not_found' } },
    });
    expect(await get(owner.api_keys.live.secret, id)).toMatchObject({
      status: 404,
      body: { error: { code: 'transaction_not_found' } },
    });
    expect((await get(owner.token, 'atx_unknown')).status).toBe(404);

    const approved = await http(stack().baseUrl, 'POST', `/v1/agents/transactions/${id}/approve`, {
      token: owner.token,
    });
    expect(approved.status).toBe(200);
    const after = (await get(agentToken, id)).body as TransactionBody;
    expect(after).toMatchObject({
      status: 'approved',
      decided_at: expect.any(String),
      transfer_id: expect.stringMatching(/^tr_/),
    });
    const transfer = await http(stack().baseUrl, 'GET', `/v1/transfers/${after.transfer_id ?? ''}`, {
      token: agentToken,
    });
    expect(transfer).toMatchObject({ status: 200, body: { transfer_id: after.transfer_id } });
    // The owner follows the approval's transfer_id too, seeing its agent's side (its key opens it).
    const transferPath = `/v1/transfers/${after.transfer_id ?? ''}`;
    const ownersView = await http(stack().baseUrl, 'GET', transferPath, { token: owner.token });
    expect(ownersView).toMatchObject({
      status: 200,
      body: { transfer_id: after.transfer_id, direction: 'sent', from: agent.handle },
    });
    const ownersAmount = (ownersView.body as { encrypted_amount: string }).encrypted_amount;
    expect(decryptAmount(agent.decryption_key, ownersAmount, 'USDC')).toBe('7.5');
    for (const token of [stranger.token, owner.api_keys.live.secret]) {
      expect(await http(stack().baseUrl, 'GET', transferPath, { token })).toMatchObject({
        status: 404,
        body: { error: { code: 'transfer_not_found' } },
      });
    }
    // 7.5 as a number of its own: a timestamp such as 19:11:17.593 contains the digits too.
    expect(JSON.stringify(after)).not.toMatch(/(?<![\d.])7\.5(?!\d)/);
  }, 90_000);

  it("lists an agent's held transactions for its owner, newest first, by pages and status; strangers get 403", async () => {
    const { owner, agent, agentToken, held } = await agentWithHolds(['2', '3', '4']);
    const [first, second, third] = held.map((h) => h.transaction_id);
    await http(stack().baseUrl, 'POST', `/v1/agents/transactions/${second ?? ''}/reject`, {
      token: owner.token,
    });
    const path = `/v1/agents/${agent.account_id}/transactions`;

    const all = await http(stack().baseUrl, 'GET', path, { token: owner.token });
    expect(all.status).toBe(200);
    const listed = all.body as { transactions: TransactionBody[]; has_more: boolean };
    expect(listed.transactions.map((t) => t.transaction_id)).toEqual([third, second, first]);
    expect(listed.transactions.map((t) => t.status)).toEqual([
      'pending_approval',
      'rejected',
      'pending_approval',
    ]);
    expect(
      listed.transactions.map((t) => decryptAmount(owner.decryption_key, t.encrypted_amount ?? '', 'USDC')),
    ).toEqual(['4', '3', '2']);

    const page = await http(stack().baseUrl, 'GET', `${path}?limit=2`, { token: owner.token });
    expect(page.body).toMatchObject({ has_more: true });
    const next = await http(stack().baseUrl, 'GET', `${path}?limit=2&starting_after=${second ?? ''}`, {
      token: owner.token,
    });
    expect(
      (next.body as { transactions: TransactionBody[] }).transactions.map((t) => t.transaction_id),
    ).toEqual([first]);
    const rejected = await http(stack().baseUrl, 'GET', `${path}?status=rejected`, { token: owner.token });
    expect(
      (rejected.body as { transactions: TransactionBody[] }).transactions.map((t) => t.transaction_id),
    ).toEqual([second]);

    const own = await http(stack().baseUrl, 'GET', path, { token: agentToken });
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).not.toContain('encrypted_amount');
    const stranger = await account(stack());
    expect(await http(stack().baseUrl, 'GET', path, { token: stranger.token })).toMatchObject({
      status: 403,
      body: { error: { code: 'not_agent_owner' } },
    });
    expect(
      await http(stack().baseUrl, 'GET', '/v1/agents/acct_unknown/transactions', { token: owner.token }),
    ).toMatchObject({ status: 404 });
    for (const query of ['limit=0', 'limit=101', 'status=done', 'extra=1']) {
      expect(await http(stack().baseUrl, 'GET', `${path}?${query}`, { token: owner.token })).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request' } },
      });
    }
  }, 90_000);

  it('lets an agent read the policy it runs under, but not another account', async () => {
    const { owner, agentToken } = await agentWithHolds([]);
    const own = await http(stack().baseUrl, 'GET', '/v1/accounts/me/spend-policy', { token: agentToken });
    expect(own).toMatchObject({
      status: 200,
      body: {
        per_transaction_limit_usdc: 100,
        hitl_threshold_usdc: 1,
        policy_id: expect.stringMatching(/^pol_/),
      },
    });
    expect(
      await http(stack().baseUrl, 'GET', '/v1/accounts/me/spend-policy', { token: owner.token }),
    ).toMatchObject({ status: 404, body: { error: { code: 'agent_not_found' } } });
    const patch = await http(stack().baseUrl, 'PATCH', '/v1/accounts/me/spend-policy', {
      token: agentToken,
      body: { per_transaction_limit_usdc: 1000 },
    });
    expect(patch).toMatchObject({ status: 405, body: { error: { code: 'method_not_allowed' } } });
  }, 60_000);
}
