import { ApproveAgentTransaction, ListPendingApprovals, RejectAgentTransaction } from '@cts/contracts';
import { InProcessBus } from '@cts/messaging';
import request from 'supertest';
import {
  bearer,
  seedAccount,
  type SeededAccount,
  startTestGateway,
  type TestGateway,
} from '../testing/test-gateway';
import { FakeApprovalService } from './fake-approval-service';

describe('/v1/agents/transactions', () => {
  let gateway: TestGateway;
  let approvals: FakeApprovalService;
  let alice: SeededAccount;

  beforeEach(async () => {
    const bus = new InProcessBus();
    approvals = new FakeApprovalService(bus);
    gateway = await startTestGateway({ bus });
    alice = seedAccount(gateway.accounts);
  });

  afterEach(async () => {
    await gateway.close();
  });

  it('lists the pending approvals of the key’s account and environment', async () => {
    const res = await request(gateway.url)
      .get('/v1/agents/transactions/pending')
      .set(bearer(alice.keys.live.secret))
      .expect(200);

    expect(res.body).toEqual({
      pending: [
        {
          transaction_id: 'atx_pending',
          agent: '@alice/bot',
          to: 'shop.example.com',
          asset: 'USDC',
          requested_at: '2030-01-01T00:00:00.000Z',
          expires_at: '2030-01-01T01:00:00.000Z',
          encrypted_amount: 'b3duZXItY2lwaGVydGV4dA==',
        },
      ],
    });
    expect(approvals.calls(ListPendingApprovals).map((c) => c.payload)).toEqual([
      { owner_account_id: alice.accountId, environment: 'live' },
    ]);
  });

  it.each([
    ['approve', ApproveAgentTransaction, 'approved'],
    ['reject', RejectAgentTransaction, 'rejected'],
  ] as const)(
    '%ss with 200 and the updated transaction, as the key’s account',
    async (verb, contract, status) => {
      const res = await request(gateway.url)
        .post(`/v1/agents/transactions/atx_1/${verb}`)
        .set(bearer(alice.keys.test.secret))
        .expect(200);

      expect(res.body).toMatchObject({ transaction_id: 'atx_1', status });
      expect(Object.keys(res.body).some((k) => k.includes('amount'))).toBe(false);
      expect(approvals.calls(contract)).toEqual([
        expect.objectContaining({
          account_id: alice.accountId,
          environment: 'test',
          payload: { caller_account_id: alice.accountId, environment: 'test', transaction_id: 'atx_1' },
        }),
      ]);
    },
  );

  it.each([
    ['transaction_not_found', 404],
    ['not_agent_owner', 403],
    ['transaction_expired', 409],
    ['transaction_already_decided', 409],
  ] as const)('maps %s to %i in the error shape', async (code, status) => {
    approvals.failNext(ApproveAgentTransaction, { code, message: `because ${code}` });

    const res = await request(gateway.url)
      .post('/v1/agents/transactions/atx_1/approve')
      .set(bearer(alice.keys.test.secret))
      .expect(status);

    expect(res.body.error).toMatchObject({
      code,
      message: `because ${code}`,
      request_id: expect.any(String),
    });
  });

  it('replays an approve retried with the same Idempotency-Key without deciding twice', async () => {
    const first = await request(gateway.url)
      .post('/v1/agents/transactions/atx_1/approve')
      .set(bearer(alice.keys.test.secret))
      .set('Idempotency-Key', 'approve-1')
      .expect(200);
    const second = await request(gateway.url)
      .post('/v1/agents/transactions/atx_1/approve')
      .set(bearer(alice.keys.test.secret))
      .set('Idempotency-Key', 'approve-1')
      .expect(200);

    expect(second.body).toEqual(first.body);
    expect(approvals.calls(ApproveAgentTransaction)).toHaveLength(1);
  });

  it('refuses an overlong transaction id with 400 without asking approval-service', async () => {
    const res = await request(gateway.url)
      .post(`/v1/agents/transactions/${'x'.repeat(65)}/reject`)
      .set(bearer(alice.keys.test.secret))
      .expect(400);

    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'transaction_id' });
    expect(approvals.calls(RejectAgentTransaction)).toHaveLength(0);
  });

  it('needs an API key', async () => {
    await request(gateway.url).get('/v1/agents/transactions/pending').expect(401);
    await request(gateway.url).post('/v1/agents/transactions/atx_1/approve').expect(401);
  });
});
