import {
  type AgentTransactionResource,
  ApproveAgentTransaction,
  fail,
  GetAgentTransaction,
  ListPendingApprovals,
  ok,
  RejectAgentTransaction,
  type Result,
} from '@cts/contracts';
import { type InProcessBus } from '@cts/messaging';
import { FakeService } from '../testing/fake-service';

/** A held x402 payment: `to` is the resource's host, `x402` who it pays and for what. */
export const X402_HOLD = {
  transaction_id: 'atx_x402',
  agent: '@alice/bot',
  to: 'api.example.com',
  asset: 'USDC' as const,
  requested_at: '2030-01-01T00:00:00.000Z',
  expires_at: '2030-01-01T01:00:00.000Z',
  x402: {
    pay_to: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
    resource: 'https://api.example.com/weather?city=Oslo',
  },
};

/**
 * An in-memory approval-service on an in-process bus, for the gateway's tests: it records what it
 * is asked and answers from `transactions`, or with the next queued failure.
 */
export class FakeApprovalService extends FakeService {
  readonly transactions = new Map<string, AgentTransactionResource>();

  constructor(bus: InProcessBus) {
    super(bus);
    this.on(ListPendingApprovals, () =>
      ok({
        pending: [
          {
            transaction_id: 'atx_pending',
            agent: '@alice/bot',
            to: 'shop.example.com',
            asset: 'USDC' as const,
            requested_at: '2030-01-01T00:00:00.000Z',
            expires_at: '2030-01-01T01:00:00.000Z',
            encrypted_amount: 'b3duZXItY2lwaGVydGV4dA==',
            x402: null,
          },
          { ...X402_HOLD, encrypted_amount: 'eDQwMi1jaXBoZXJ0ZXh0' },
        ],
      }),
    );
    this.on(GetAgentTransaction, (req) =>
      req.transaction_id === X402_HOLD.transaction_id
        ? ok({ ...X402_HOLD, status: 'pending_approval' as const, decided_at: null, transfer_id: null })
        : fail('transaction_not_found', 'No agent transaction with this ID'),
    );
    this.on(ApproveAgentTransaction, (req) => this.decided(req.transaction_id, 'approved'));
    this.on(RejectAgentTransaction, (req) => this.decided(req.transaction_id, 'rejected'));
  }

  private decided(id: string, status: 'approved' | 'rejected'): Result<AgentTransactionResource> {
    return ok({
      transaction_id: id,
      status,
      agent: '@alice/bot',
      to: 'shop.example.com',
      asset: 'USDC',
      requested_at: '2030-01-01T00:00:00.000Z',
      expires_at: '2030-01-01T01:00:00.000Z',
      decided_at: '2030-01-01T00:10:00.000Z',
      transfer_id: status === 'approved' ? 'tr_settled' : null,
      x402: null,
    });
  }
}
