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
import { createOpenApiDocument } from '../openapi/openapi.export';
import { FakeApprovalService, X402_HOLD } from './fake-approval-service';

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
          x402: null,
        },
        { ...X402_HOLD, encrypted_amount: 'eDQwMi1jaXBoZXJ0ZXh0' },
      ],
    });
    expect(approvals.calls(ListPendingApprovals).map((c) => c.payload)).toEqual([
      { owner_account_id: alice.accountId, environment: 'live' },
    ]);
  });

  it('shows the owner who a held x402 payment pays and for which resource, in the list and the transaction', async () => {
    const pending = await request(gateway.url)
      .get('/v1/agents/transactions/pending')
      .set(bearer(alice.keys.live.secret))
      .expect(200);
    const held = await request(gateway.url)
      .get(`/v1/agents/transactions/${X402_HOLD.transaction_id}`)
      .set(bearer(alice.keys.live.secret))
      .expect(200);

    expect(pending.body.pending[1]).toMatchObject({ to: 'api.example.com', x402: X402_HOLD.x402 });
    expect(held.body).toMatchObject({ status: 'pending_approval', x402: X402_HOLD.x402 });
    expect(Object.keys(held.body).some((k) => k.includes('amount'))).toBe(false);
  });

  it('documents x402 (payee and resource, or null) on the pending item and the transaction', async () => {
    const schemas = (await createOpenApiDocument()).components?.schemas ?? {};
    for (const name of ['PendingApproval', 'AgentTransaction', 'AgentTransactionState']) {
      const schema = schemas[name] as { properties?: Record<string, unknown>; required?: string[] };
      expect(schema.required).toContain('x402');
      expect(schema.properties?.x402).toMatchObject({
        nullable: true,
        properties: { pay_to: { type: 'string' }, resource: { type: 'string' } },
        required: ['pay_to', 'resource'],
      });
    }
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
