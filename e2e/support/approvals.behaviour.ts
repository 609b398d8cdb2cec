import { http, type HttpResponse } from './http';
import { type StackUnderTest } from './foundation.behaviour';
import { account, fund, provenBalance } from './transfers.behaviour';

const POLICY = {
  daily_limit_usdc: 1000,
  per_transaction_limit_usdc: 100,
  hitl_threshold_usdc: 1,
  approval_window_minutes: 1,
};

const codeOf = (response: HttpResponse) => (response.body as { error?: { code: string } }).error?.code;

/** Issue 5 on the real stack: decisions race, exactly one wins, money moves at most once. */
export function approvalsBehaviour(stack: () => StackUnderTest, options: { expiry: boolean }): void {
  async function heldTransfers(count: number) {
    const owner = await account(stack());
    const created = await http(stack().baseUrl, 'POST', '/v1/accounts/me/agents', {
      token: owner.token,
      body: { name: 'racer', spend_policy: POLICY },
    });
    const agent = created.body as { account_id: string; decryption_key: string };
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
    const held: { transaction_id: string; expires_at: string }[] = [];
    for (let i = 0; i < count; i += 1) {
      const response = await http(stack().baseUrl, 'POST', '/v1/transfers', {
        token: agentAccount.token,
        body: { to: merchant.account.handle, amount: '5' },
      });
      expect(response.status).toBe(202);
      held.push(response.body as { transaction_id: string; expires_at: string });
    }
    const decide = (id: string, verb: 'approve' | 'reject') =>
      http(stack().baseUrl, 'POST', `/v1/agents/transactions/${id}/${verb}`, { token: owner.token });
    return { owner, agentAccount, merchant, held, decide };
  }

  it('lets exactly one of two racing approvals settle, and one of an approval and a rejection', async () => {
    const { merchant, held, decide } = await heldTransfers(2);
    const [first, second] = held.map((h) => h.transaction_id);
    const approvals = await Promise.all([decide(first ?? '', 'approve'), decide(first ?? '', 'approve')]);
    expect(approvals.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(codeOf(approvals.find((r) => r.status === 409) ?? (approvals[0] as HttpResponse))).toBe(
      'transaction_already_decided',
    );

    const mixed = await Promise.all([decide(second ?? '', 'approve'), decide(second ?? '', 'reject')]);
    expect(mixed.map((r) => r.status).sort()).toEqual([200, 409]);
    const approvedSecond = mixed[0]?.status === 200;
    expect((mixed.find((r) => r.status === 200)?.body as { status: string }).status).toBe(
      approvedSecond ? 'approved' : 'rejected',
    );
    expect(await provenBalance(stack(), merchant)).toBe(approvedSecond ? '10' : '5');
  }, 90_000);

  if (options.expiry) {
    it('expires holds after their window even when nobody calls, and an approval at the deadline moves money at most once', async () => {
      const { owner, merchant, held, decide } = await heldTransfers(2);
      const [racing, ignored] = held;
      const deadline = new Date(racing?.expires_at ?? 0).getTime();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now() - 150)));
      const attempts = await Promise.all(
        [0, 100, 200, 300].map(async (delay) => {
          await new Promise((resolve) => setTimeout(resolve, delay));
          return decide(racing?.transaction_id ?? '', 'approve');
        }),
      );
      const wins = attempts.filter((r) => r.status === 200);
      expect(wins.length).toBeLessThanOrEqual(1);
      for (const refused of attempts.filter((r) => r.status !== 200)) {
        expect(refused.status).toBe(409);
        expect(['transaction_expired', 'transaction_already_decided']).toContain(codeOf(refused));
      }
      expect(await provenBalance(stack(), merchant)).toBe(wins.length === 1 ? '5' : '0');

      // The other hold was never touched: the sweeper expired it on its own.
      const late = Date.now() + 15_000;
      let pending: { transaction_id: string }[] = [{ transaction_id: ignored?.transaction_id ?? '' }];
      while (pending.some((p) => p.transaction_id === ignored?.transaction_id) && Date.now() < late) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        pending = (
          (await http(stack().baseUrl, 'GET', '/v1/agents/transactions/pending', { token: owner.token }))
            .body as { pending: { transaction_id: string }[] }
        ).pending;
      }
      expect(pending.map((p) => p.transaction_id)).not.toContain(ignored?.transaction_id);
      const after = await decide(ignored?.transaction_id ?? '', 'approve');
      expect(after).toMatchObject({ status: 409, body: { error: { code: 'transaction_expired' } } });
    }, 120_000);
  }
}
