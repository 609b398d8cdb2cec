import { AgentTransactionView, PendingApprovalItem } from './approval.schemas';

const item = {
  transaction_id: 'atx_1',
  agent: '@o/bot',
  to: 'api.example.com',
  asset: 'USDC',
  requested_at: '2030-01-01T00:00:00.000Z',
  expires_at: '2030-01-01T01:00:00.000Z',
  encrypted_amount: 'b3duZXI=',
};

describe('the x402 terms of a held transaction', () => {
  it('are read as null from an approval-service that does not send them yet (a rolling upgrade)', () => {
    expect(PendingApprovalItem.parse(item).x402).toBeNull();
    expect(
      AgentTransactionView.parse({
        ...item,
        status: 'pending_approval',
        decided_at: null,
        transfer_id: null,
      }).x402,
    ).toBeNull();
  });

  it('keep the payee and the resource when sent', () => {
    const x402 = {
      pay_to: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      resource: 'https://api.example.com/w',
    };
    expect(PendingApprovalItem.parse({ ...item, x402 }).x402).toEqual(x402);
  });
});
