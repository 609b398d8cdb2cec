import {
  type AgentTransaction,
  type AgentTransactionState,
  awaitsDecision,
  canMove,
  expiresAtFor,
  holdFrom,
  holdRefusal,
  isOverdue,
  judgeDecision,
  publicStatus,
  releasesReservation,
  toEventPayload,
  toHeld,
  toPendingItem,
  toResource,
} from './agent-transaction.domain';

const requestedAt = new Date('2026-03-10T12:00:00.000Z');
const expiresAt = new Date('2026-03-10T13:00:00.000Z');
const owner = { account_id: 'acct_owner', handle: '@owner' };
const agent = { account_id: 'acct_bot', handle: '@owner/bot' };
const ownerDecides = { accountId: owner.account_id, environment: 'test' as const };
const before = new Date(expiresAt.getTime() - 1);

function transaction(overrides: Partial<AgentTransaction> = {}): AgentTransaction {
  return {
    id: 'atx_1',
    environment: 'test',
    agent,
    owner,
    to: 'shop.example.com',
    asset: 'USDC',
    confidential: true,
    sealedAmount: 's1.sealed-for-the-agent',
    sealedMemo: null,
    apiKeyId: 'key_1',
    reservationId: 'tr_reserved',
    ownerEncryptedAmount: 'b3duZXItYWUtY2lwaGVydGV4dA==',
    state: 'pending_approval',
    requestedAt,
    expiresAt,
    decidedAt: null,
    transferId: null,
    failureReason: null,
    x402: null,
    ...overrides,
  };
}

const STATES: AgentTransactionState[] = [
  'pending_approval',
  'approving',
  'approved',
  'rejected',
  'expired',
  'failed',
];

describe('agent transaction state machine', () => {
  it.each([
    ['pending_approval', 'approving'],
    ['pending_approval', 'rejected'],
    ['pending_approval', 'expired'],
    ['approving', 'approved'],
    ['approving', 'failed'],
  ] as const)('moves from %s to %s', (from, to) => {
    expect(canMove(from, to)).toBe(true);
  });

  it('allows no other move, and none at all out of a final state', () => {
    const allowed = new Set([
      'pending_approval>approving',
      'pending_approval>rejected',
      'pending_approval>expired',
      'approving>approved',
      'approving>failed',
    ]);
    for (const from of STATES) {
      for (const to of STATES) {
        expect([`${from}>${to}`, canMove(from, to)]).toEqual([`${from}>${to}`, allowed.has(`${from}>${to}`)]);
      }
    }
  });

  it('frees the spend reservation exactly when the transaction ends without a transfer', () => {
    expect(STATES.filter(releasesReservation)).toEqual(['rejected', 'expired', 'failed']);
  });

  it('shows approving as approved: the owner’s decision is taken, the transfer is settling', () => {
    expect(STATES.map(publicStatus)).toEqual([
      'pending_approval',
      'approved',
      'approved',
      'rejected',
      'expired',
      'failed',
    ]);
  });
});

describe('approval window', () => {
  it('ends approval_window_minutes after requested_at', () => {
    expect(expiresAtFor(requestedAt, 60)).toEqual(expiresAt);
    expect(expiresAtFor(requestedAt, 10080).toISOString()).toBe('2026-03-17T12:00:00.000Z');
  });

  it('is open until just before expires_at and over at expires_at', () => {
    const tx = transaction();
    expect(awaitsDecision(tx, before)).toBe(true);
    expect(isOverdue(tx, before)).toBe(false);
    expect(awaitsDecision(tx, expiresAt)).toBe(false);
    expect(isOverdue(tx, expiresAt)).toBe(true);
  });

  it('makes only a pending transaction overdue or awaiting a decision', () => {
    const late = new Date(expiresAt.getTime() + 1);
    for (const state of STATES.filter((s) => s !== 'pending_approval')) {
      expect(isOverdue(transaction({ state }), late)).toBe(false);
      expect(awaitsDecision(transaction({ state }), before)).toBe(false);
    }
  });
});

describe('judgeDecision: who may decide, and when', () => {
  it('lets the owner approve or reject a pending transaction within the window', () => {
    expect(judgeDecision(transaction(), ownerDecides, 'approve', before)).toEqual({
      outcome: 'proceed',
      next: 'approving',
    });
    expect(judgeDecision(transaction(), ownerDecides, 'reject', requestedAt)).toEqual({
      outcome: 'proceed',
      next: 'rejected',
    });
  });

  it('answers transaction_not_found for an unknown id and for the other environment', () => {
    expect(judgeDecision(null, ownerDecides, 'approve', before)).toMatchObject({
      code: 'transaction_not_found',
    });
    expect(
      judgeDecision(transaction(), { ...ownerDecides, environment: 'live' }, 'approve', before),
    ).toMatchObject({
      code: 'transaction_not_found',
    });
  });

  it('answers not_agent_owner to the agent itself and to any other account, before revealing the state', () => {
    for (const accountId of [agent.account_id, 'acct_stranger']) {
      for (const state of STATES) {
        expect(
          judgeDecision(transaction({ state }), { accountId, environment: 'test' }, 'approve', before),
        ).toEqual({
          outcome: 'refuse',
          code: 'not_agent_owner',
          expire: false,
        });
      }
    }
  });

  it('answers transaction_expired after the window and asks to expire a transaction still pending', () => {
    expect(judgeDecision(transaction(), ownerDecides, 'approve', expiresAt)).toEqual({
      outcome: 'refuse',
      code: 'transaction_expired',
      expire: true,
    });
    expect(judgeDecision(transaction({ state: 'expired' }), ownerDecides, 'reject', before)).toEqual({
      outcome: 'refuse',
      code: 'transaction_expired',
      expire: false,
    });
  });

  it.each(['approving', 'approved', 'rejected', 'failed'] as const)(
    'answers transaction_already_decided for a %s transaction, even after the window',
    (state) => {
      for (const decision of ['approve', 'reject'] as const) {
        for (const now of [before, new Date(expiresAt.getTime() + 60_000)]) {
          expect(judgeDecision(transaction({ state }), ownerDecides, decision, now)).toEqual({
            outcome: 'refuse',
            code: 'transaction_already_decided',
            expire: false,
          });
        }
      }
    },
  );
});

describe('views of a transaction: never an amount', () => {
  const secrets = ['s1.sealed-for-the-agent', 'b3duZXItYWUtY2lwaGVydGV4dA==', 'memo-sealed'];
  const tx = transaction({ sealedMemo: 'memo-sealed' });

  it('replies to a hold with the held transaction of spec §6', () => {
    expect(toHeld(tx)).toEqual({
      transaction_id: 'atx_1',
      status: 'pending_approval',
      agent: '@owner/bot',
      to: 'shop.example.com',
      asset: 'USDC',
      requested_at: '2026-03-10T12:00:00.000Z',
      expires_at: '2026-03-10T13:00:00.000Z',
    });
  });

  it('lists a pending item with the owner’s encrypted amount only', () => {
    expect(toPendingItem(tx)).toEqual({
      transaction_id: 'atx_1',
      agent: '@owner/bot',
      to: 'shop.example.com',
      asset: 'USDC',
      requested_at: '2026-03-10T12:00:00.000Z',
      expires_at: '2026-03-10T13:00:00.000Z',
      encrypted_amount: 'b3duZXItYWUtY2lwaGVydGV4dA==',
      x402: null,
    });
  });

  it('carries no ciphertext in the resource or in an event, and a failure reason only when failed', () => {
    const decided = new Date('2026-03-10T12:30:00.000Z');
    const failed = transaction({
      state: 'failed',
      decidedAt: decided,
      failureReason: 'insufficient_balance',
    });
    expect(toResource(failed)).toEqual({
      transaction_id: 'atx_1',
      status: 'failed',
      agent: '@owner/bot',
      to: 'shop.example.com',
      asset: 'USDC',
      requested_at: '2026-03-10T12:00:00.000Z',
      expires_at: '2026-03-10T13:00:00.000Z',
      decided_at: '2026-03-10T12:30:00.000Z',
      transfer_id: null,
      failure_reason: 'insufficient_balance',
      x402: null,
    });
    expect(toEventPayload(transaction({ state: 'approving', decidedAt: decided }))).toEqual({
      transaction_id: 'atx_1',
      status: 'approved',
      agent,
      owner,
      to: 'shop.example.com',
      asset: 'USDC',
      requested_at: '2026-03-10T12:00:00.000Z',
      expires_at: '2026-03-10T13:00:00.000Z',
      decided_at: '2026-03-10T12:30:00.000Z',
      transfer_id: null,
      x402: null,
    });
    for (const view of [toResource(tx), toEventPayload(tx), toHeld(tx)]) {
      for (const secret of secrets) {
        expect(JSON.stringify(view)).not.toContain(secret);
      }
    }
  });
});

describe('holds', () => {
  const request = {
    environment: 'test' as const,
    agent,
    owner,
    to: '@shop',
    asset: 'USDC' as const,
    confidential: true,
    sealed_amount: 's1.amount',
    sealed_memo: null,
    api_key_id: 'key_1',
    reservation_id: 'tr_reserved',
    approval_window_minutes: 30,
    owner_encrypted_amount: 'AAAA',
    requested_at: '2026-03-10T12:00:00.000Z',
  };

  it('keeps what transfer-service sent, pending, with the window from requested_at', () => {
    expect(holdFrom(request, 'atx_new')).toMatchObject({
      id: 'atx_new',
      state: 'pending_approval',
      reservationId: 'tr_reserved',
      sealedAmount: 's1.amount',
      ownerEncryptedAmount: 'AAAA',
      expiresAt: new Date('2026-03-10T12:30:00.000Z'),
      decidedAt: null,
    });
  });

  it('keeps an x402 payment’s payee and resource for its owner to see, and none for a transfer', () => {
    const x402 = {
      pay_to: 'PayeeAddress1111111111111111111111111111111',
      resource: 'https://api.example.com/a?b=1',
    };
    const held = holdFrom({ ...request, to: 'api.example.com', x402 }, 'atx_x402');
    expect(held.x402).toEqual(x402);
    expect(toPendingItem(held)).toMatchObject({ to: 'api.example.com', x402 });
    expect(toResource(held).x402).toEqual(x402);
    expect(toEventPayload(held).x402).toEqual(x402);
    expect(holdFrom(request, 'atx_transfer').x402).toBeNull();
    expect(holdFrom({ ...request, x402: null }, 'atx_transfer').x402).toBeNull();
  });

  it('refuses an agent that is its own owner, and a reservation held for another agent or environment', () => {
    expect(holdRefusal({ ...request, owner: agent }, null)).toMatchObject({ param: 'owner' });
    expect(holdRefusal(request, null)).toBeNull();
    expect(holdRefusal(request, transaction())).toBeNull();
    expect(
      holdRefusal(request, transaction({ agent: { account_id: 'acct_other', handle: '@o/x' } })),
    ).toMatchObject({
      param: 'reservation_id',
    });
    expect(holdRefusal(request, transaction({ environment: 'live' }))).toMatchObject({
      param: 'reservation_id',
    });
  });
});
