import { http } from './http';
import { type StackUnderTest } from './foundation.behaviour';
import { account, fund, provenBalance } from './transfers.behaviour';

const POLICY = { daily_limit_usdc: 50, per_transaction_limit_usdc: 20, hitl_threshold_usdc: 10 };

type Owner = Awaited<ReturnType<typeof account>>;

/** Issue 14 through HTTP, the same in both modes: test and live apart, owners in control of their agents. */
export function securityBehaviour(stack: () => StackUnderTest): void {
  const call = (method: string, path: string, token: string, body?: unknown) =>
    http(stack().baseUrl, method, path, { token, body });

  async function ownerWithAgent(owner?: Owner) {
    const who = owner ?? (await account(stack()));
    const live = who.api_keys.live.secret;
    const created = await call('POST', '/v1/accounts/me/agents', who.token, {
      name: 'bot',
      spend_policy: POLICY,
    });
    expect(created.status).toBe(201);
    const agent = created.body as {
      account_id: string;
      public_key: string;
      spend_policy_id: string;
      decryption_key: string;
    };
    const keyIn = async (token: string) => {
      const key = await call('POST', `/v1/agents/${agent.account_id}/api-keys`, token, { name: 'bot key' });
      expect(key.status).toBe(201);
      return key.body as { key_id: string; secret: string; environment: string };
    };
    return { owner: who, live, agent, testKey: await keyIn(who.token), liveKey: await keyIn(live) };
  }

  describe('test and live are separate worlds', () => {
    it("keeps an agent's live spend policy out of a test key's reach", async () => {
      const { owner, live, agent } = await ownerWithAgent();
      const path = `/v1/agents/${agent.account_id}/spend-policy`;
      const liveBefore = (await call('GET', path, live)).body as { policy_id: string };
      expect(liveBefore).toMatchObject({ daily_limit_usdc: 50, hitl_threshold_usdc: 10 });
      expect(liveBefore.policy_id).not.toBe(agent.spend_policy_id);

      const lifted = await call('PATCH', path, owner.token, {
        daily_limit_usdc: 1000,
        per_transaction_limit_usdc: 1000,
        hitl_threshold_usdc: 900,
      });
      expect(lifted).toMatchObject({
        status: 200,
        body: { policy_id: agent.spend_policy_id, daily_limit_usdc: 1000 },
      });
      expect((await call('GET', path, live)).body).toEqual(liveBefore);

      const liveChange = await call('PATCH', path, live, { daily_limit_usdc: 40 });
      expect(liveChange).toMatchObject({
        status: 200,
        body: { policy_id: liveBefore.policy_id, daily_limit_usdc: 40 },
      });
      expect((await call('GET', path, owner.token)).body).toMatchObject({ daily_limit_usdc: 1000 });
    }, 60_000);

    it('lists and revokes only the API keys of the calling key’s environment', async () => {
      const owner = await account(stack());
      const live = owner.api_keys.live;
      const listed = await call('GET', '/v1/api-keys', owner.token);
      const keys = (listed.body as { api_keys: { key_id: string; environment: string }[] }).api_keys;
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((key) => key.environment === 'test')).toBe(true);
      expect(keys.map((key) => key.key_id)).not.toContain(live.key_id);

      expect(await call('DELETE', `/v1/api-keys/${live.key_id}`, owner.token)).toMatchObject({
        status: 404,
        body: { error: { code: 'api_key_not_found' } },
      });
      expect((await call('GET', '/v1/accounts/me', live.secret)).status).toBe(200);
      expect((await call('DELETE', `/v1/api-keys/${live.key_id}`, live.secret)).status).toBe(204);
      expect((await call('GET', '/v1/accounts/me', live.secret)).status).toBe(401);
    }, 60_000);

    it("shows each agent's address on the calling key's ledger", async () => {
      const { owner, live, agent, liveKey } = await ownerWithAgent();
      const listIn = async (token: string) =>
        (
          (await call('GET', '/v1/accounts/me/agents', token)).body as {
            agents: { account_id: string; public_key: string }[];
          }
        ).agents.find((listed) => listed.account_id === agent.account_id);
      const liveAddress = (
        (await call('GET', '/v1/accounts/me', liveKey.secret)).body as { public_key: string }
      ).public_key;
      expect((await listIn(owner.token))?.public_key).toBe(agent.public_key);
      expect((await listIn(live))?.public_key).toBe(liveAddress);
      expect(liveAddress).not.toBe(agent.public_key);
    }, 60_000);
  });

  describe("owners control their agents' credentials", () => {
    it('refuses an agent key that asks for another key, or to list or revoke keys', async () => {
      const { testKey, liveKey } = await ownerWithAgent();
      const forbidden = { status: 403, body: { error: { code: 'forbidden' } } };
      for (const key of [testKey, liveKey]) {
        expect(await call('POST', '/v1/api-keys', key.secret, { name: 'escape' })).toMatchObject(forbidden);
        expect(await call('GET', '/v1/api-keys', key.secret)).toMatchObject(forbidden);
        expect(await call('DELETE', `/v1/api-keys/${key.key_id}`, key.secret)).toMatchObject(forbidden);
        expect((await call('GET', '/v1/accounts/me', key.secret)).status).toBe(200);
      }
    }, 60_000);

    it("lets the owner list and revoke its agent's keys, effective on the next request, and nobody else", async () => {
      const { owner, agent, testKey } = await ownerWithAgent();
      const stranger = await account(stack());
      const keysPath = `/v1/agents/${agent.account_id}/api-keys`;
      expect((await call('GET', '/v1/accounts/me', testKey.secret)).status).toBe(200);

      const listed = await call('GET', keysPath, owner.token);
      expect(listed.status).toBe(200);
      expect((listed.body as { api_keys: { key_id: string }[] }).api_keys.map((key) => key.key_id)).toEqual([
        testKey.key_id,
      ]);
      expect(JSON.stringify(listed.body)).not.toContain(testKey.secret);

      for (const token of [stranger.token, testKey.secret]) {
        expect(await call('GET', keysPath, token)).toMatchObject({
          status: 403,
          body: { error: { code: 'not_agent_owner' } },
        });
        expect(await call('DELETE', `${keysPath}/${testKey.key_id}`, token)).toMatchObject({
          status: 403,
          body: { error: { code: 'not_agent_owner' } },
        });
      }
      expect(await call('DELETE', `${keysPath}/${owner.api_keys.test.key_id}`, owner.token)).toMatchObject({
        status: 404,
      });
      expect((await call('DELETE', `${keysPath}/${testKey.key_id}`, owner.token)).status).toBe(204);
      expect(await call('GET', '/v1/accounts/me', testKey.secret)).toMatchObject({ status: 401 });
      expect((await call('GET', keysPath, owner.token)).body).toMatchObject({
        api_keys: [{ key_id: testKey.key_id, revoked_at: expect.any(String) }],
      });
    }, 60_000);

    it("holds an agent's transfers and its owner's approvals to the owner's current KYC", async () => {
      const { owner, agent, testKey } = await ownerWithAgent();
      const merchant = await account(stack());
      await fund(stack(), { ...owner, token: testKey.secret }, '100');
      const send = (amount: string) =>
        call('POST', '/v1/transfers', testKey.secret, { to: merchant.account.handle, amount });
      const held = await send('15');
      expect(held.status).toBe(202);
      const setKyc = (kyc_status: string) =>
        http(stack().baseUrl, 'PATCH', `/admin/v1/accounts/${owner.account.account_id}`, {
          token: stack().adminToken,
          body: { kyc_status },
        });
      expect((await setKyc('unverified')).status).toBe(200);

      expect(await send('1')).toMatchObject({ status: 403, body: { error: { code: 'kyc_required' } } });
      const transactionId = (held.body as { transaction_id: string }).transaction_id;
      expect(
        await call('POST', `/v1/agents/transactions/${transactionId}/approve`, owner.token),
      ).toMatchObject({
        status: 403,
        body: { error: { code: 'kyc_required' } },
      });
      expect((await call('GET', '/v1/agents/transactions/pending', owner.token)).body).toMatchObject({
        pending: [{ transaction_id: transactionId }],
      });

      expect((await setKyc('verified')).status).toBe(200);
      expect(await send('1')).toMatchObject({ status: 200 });
      expect(
        await call('POST', `/v1/agents/transactions/${transactionId}/approve`, owner.token),
      ).toMatchObject({ status: 200, body: { status: 'approved' } });
      expect(agent.account_id).toMatch(/^acct_/);
    }, 90_000);

    it("lets an agent pay once its owner is verified after the agent's creation; an agent has no KYC of its own", async () => {
      const { owner, agent, testKey } = await ownerWithAgent(await account(stack(), { kyc: 'pending' }));
      const merchant = await account(stack());
      await fund(stack(), { ...owner, token: testKey.secret }, '100');
      const setKyc = (accountId: string, kyc_status: string) =>
        http(stack().baseUrl, 'PATCH', `/admin/v1/accounts/${accountId}`, {
          token: stack().adminToken,
          body: { kyc_status },
        });
      const pay = () =>
        call('POST', '/v1/transfers', testKey.secret, { to: merchant.account.handle, amount: '1' });
      expect((await call('GET', '/v1/accounts/me', testKey.secret)).body).toMatchObject({
        kyc_status: 'pending',
      });
      expect(await pay()).toMatchObject({ status: 403, body: { error: { code: 'kyc_required' } } });

      expect((await setKyc(owner.account.account_id, 'verified')).status).toBe(200);
      expect((await call('GET', '/v1/accounts/me', testKey.secret)).body).toMatchObject({
        type: 'agent',
        kyc_status: 'verified',
      });
      expect(await pay()).toMatchObject({ status: 200 });

      expect(await setKyc(agent.account_id, 'unverified')).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request', param: 'account_id' } },
      });
      expect(await pay()).toMatchObject({ status: 200 });
    }, 90_000);
  });

  describe('internal identifiers out of clients’ reach', () => {
    it("settles an approved hold as its own transfer even when the agent sent the approval's key first", async () => {
      const { owner, testKey } = await ownerWithAgent();
      const agentAccount = { ...owner, token: testKey.secret };
      const merchant = await account(stack());
      await fund(stack(), agentAccount, '100');
      const held = await call('POST', '/v1/transfers', testKey.secret, {
        to: merchant.account.handle,
        amount: '15',
      });
      expect(held.status).toBe(202);
      const transactionId = (held.body as { transaction_id: string }).transaction_id;
      const forged: string[] = [];
      for (const key of [`approval:${transactionId}`, `internal:approval:${transactionId}`]) {
        const preempt = await http(stack().baseUrl, 'POST', '/v1/transfers', {
          token: testKey.secret,
          body: { to: merchant.account.handle, amount: '1' },
          headers: { 'Idempotency-Key': key },
        });
        expect(preempt).toMatchObject({ status: 200, body: { status: 'confirmed' } });
        forged.push((preempt.body as { transfer_id: string }).transfer_id);
      }
      const approved = await call('POST', `/v1/agents/transactions/${transactionId}/approve`, owner.token);
      expect(approved).toMatchObject({ status: 200, body: { status: 'approved' } });
      const transferId = (approved.body as { transfer_id: string }).transfer_id;
      expect(forged).not.toContain(transferId);
      expect(await provenBalance(stack(), merchant)).toBe('17');
    }, 90_000);
  });

  describe('robustness', () => {
    it('refuses a memo over its byte limit with 400 before anything is reserved', async () => {
      const { owner, testKey } = await ownerWithAgent();
      const merchant = await account(stack());
      await fund(stack(), { ...owner, token: testKey.secret }, '100');
      const cjk = '漢'.repeat(400);
      const refused = await call('POST', '/v1/transfers', testKey.secret, {
        to: merchant.account.handle,
        amount: '9',
        memo: cjk,
      });
      expect(refused).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request', param: 'memo' } },
      });
      const fits = await call('POST', '/v1/transfers', testKey.secret, {
        to: merchant.account.handle,
        amount: '9',
        memo: '漢'.repeat(341),
      });
      expect(fits).toMatchObject({ status: 200, body: { status: 'confirmed' } });
    }, 90_000);
  });
}
