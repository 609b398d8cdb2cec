import { type AgentTransaction, type PendingApproval } from '@cts/sdk';
import { type Opened } from '../crypto/amounts';
import { approvedNotice, approveMessage, inboxSummary } from './approval-text';

const transfer: PendingApproval = {
  transaction_id: 'atx_1',
  agent: '@me/shopper',
  to: '@shop',
  requested_at: '2026-01-10T12:00:00.000Z',
  expires_at: '2026-01-10T13:00:00.000Z',
  encrypted_amount: 'ct',
  asset: 'USDC',
  x402: null,
};
const x402: PendingApproval = {
  ...transfer,
  to: 'api.example.com',
  x402: { pay_to: 'PayeeAddress111', resource: 'https://api.example.com/report' },
};
const open: Opened = { state: 'open', text: '0.5' };
const approved = (transferId: string): AgentTransaction => ({
  transaction_id: 'atx_1',
  status: 'approved',
  transfer_id: transferId,
});

describe('approving a held transfer', () => {
  it('says it is signed and submitted at once, and that live funds move in live mode', () => {
    expect(approveMessage(transfer, open, 'test')).toBe(
      "Send 0.5 USDC to @shop from @me/shopper. It is signed and submitted at once, under the agent's current policy.",
    );
    expect(approveMessage(transfer, open, 'live')).toContain('This is live: real funds move.');
    expect(approvedNotice(transfer, open, approved('tr_1'))).toBe(
      'Approved: transfer tr_1 was signed and submitted.',
    );
  });
});

describe('approving a held x402 payment', () => {
  it('says the agent may pay this resource, payee and amount when it asks again, and nothing moves before', () => {
    const message = approveMessage(x402, open, 'live');
    expect(message).toContain(
      'Let @me/shopper pay 0.5 USDC to PayeeAddress111 for https://api.example.com/report when it asks for the resource again.',
    );
    expect(message).toContain('Nothing is paid until then');
    expect(message).not.toContain('signed and submitted');
    expect(message).toContain('This is live: real funds move when it pays.');
  });

  it('announces an authorisation, not a payment made', () => {
    const notice = approvedNotice(x402, open, approved('x402_1'));
    expect(notice).toBe(
      'Approved: @me/shopper may now pay 0.5 USDC to PayeeAddress111 for https://api.example.com/report when it asks again (payment x402_1); nothing is paid until then.',
    );
  });
});

describe('inboxSummary', () => {
  it('says nothing is waiting only once the list was loaded', () => {
    expect(inboxSummary('loading', false, 0)).toBe('Loading…');
    expect(inboxSummary('loaded', true, 0)).toBe('Nothing is waiting for your approval.');
    expect(inboxSummary('loaded', true, 2)).toBe('2 payments waiting for your decision.');
  });

  it('says the list could not be loaded instead of claiming it is empty', () => {
    expect(inboxSummary('failed', false, 0)).toBe(
      'The payments waiting for approval could not be loaded. Trying again every few seconds.',
    );
    expect(inboxSummary('failed', true, 1)).toBe(
      '1 payment waiting for your decision. The last check failed: this list may be out of date.',
    );
  });
});
