import { type AgentTransaction } from '../transactions/agent-transaction.domain';
import { statusAt, toView, viewerOf } from './lookup.domain';

const requestedAt = new Date('2030-01-01T10:00:00.000Z');
const expiresAt = new Date('2030-01-01T11:00:00.000Z');

const tx = (overrides: Partial<AgentTransaction> = {}): AgentTransaction => ({
  id: 'atx_1',
  environment: 'test',
  agent: { account_id: 'acct_agent', handle: '@o/bot' },
  owner: { account_id: 'acct_owner', handle: '@o' },
  to: '@shop',
  asset: 'USDC',
  confidential: true,
  sealedAmount: 's1.sealed',
  sealedMemo: null,
  apiKeyId: 'key_1',
  reservationId: 'tr_1',
  ownerEncryptedAmount: 'b3duZXItY2lwaGVy',
  state: 'pending_approval',
  requestedAt,
  expiresAt,
  decidedAt: null,
  transferId: null,
  failureReason: null,
  x402: null,
  ...overrides,
});

describe('who may read a held agent transaction', () => {
  it('is the owner or the agent itself, in the transaction’s environment only', () => {
    expect(viewerOf(tx(), 'acct_owner', 'test')).toBe('owner');
    expect(viewerOf(tx(), 'acct_agent', 'test')).toBe('agent');
    expect(viewerOf(tx(), 'acct_stranger', 'test')).toBeNull();
    expect(viewerOf(tx(), 'acct_owner', 'live')).toBeNull();
    expect(viewerOf(tx(), 'acct_agent', 'live')).toBeNull();
  });
});

describe('the status a reader sees', () => {
  it('reads a pending transaction past its window as expired, before the sweeper marks it', () => {
    expect(statusAt(tx(), new Date(expiresAt.getTime() - 1))).toBe('pending_approval');
    expect(statusAt(tx(), expiresAt)).toBe('expired');
  });

  it('reads an approval whose transfer is still settling as approved, and keeps final states', () => {
    const late = new Date(expiresAt.getTime() + 60_000);
    expect(statusAt(tx({ state: 'approving' }), late)).toBe('approved');
    for (const state of ['approved', 'rejected', 'expired', 'failed'] as const) {
      expect(statusAt(tx({ state }), late)).toBe(state);
    }
  });
});

describe('the view of a held transaction', () => {
  const now = new Date('2030-01-01T10:30:00.000Z');

  it('gives the owner the encrypted amount and the agent no amount at all', () => {
    const owner = toView(tx(), 'owner', now);
    expect(owner).toEqual({
      transaction_id: 'atx_1',
      status: 'pending_approval',
      agent: '@o/bot',
      to: '@shop',
      asset: 'USDC',
      requested_at: requestedAt.toISOString(),
      expires_at: expiresAt.toISOString(),
      decided_at: null,
      transfer_id: null,
      encrypted_amount: 'b3duZXItY2lwaGVy',
      x402: null,
    });
    const agent = toView(tx(), 'agent', now);
    expect(agent).not.toHaveProperty('encrypted_amount');
    expect(JSON.stringify(agent)).not.toContain('sealed');
  });

  it('carries the transfer id once settled and the reason of a failure', () => {
    const decidedAt = new Date('2030-01-01T10:10:00.000Z');
    expect(toView(tx({ state: 'approved', decidedAt, transferId: 'tr_9' }), 'agent', now)).toMatchObject({
      status: 'approved',
      decided_at: decidedAt.toISOString(),
      transfer_id: 'tr_9',
    });
    expect(
      toView(tx({ state: 'failed', decidedAt, failureReason: 'insufficient_balance' }), 'owner', now),
    ).toMatchObject({ status: 'failed', failure_reason: 'insufficient_balance' });
  });
});
