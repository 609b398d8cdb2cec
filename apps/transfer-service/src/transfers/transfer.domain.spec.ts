import {
  kycAllowsMoney,
  reconcileOutcome,
  toTransferEvent,
  toTransferResource,
  type TransferRecord,
} from './transfer.domain';

const GIVE_UP = 90_000;

const transfer: TransferRecord = {
  id: 'tr_1',
  environment: 'test',
  commandId: 'cmd_1',
  idempotencyKey: null,
  apiKeyId: 'key_1',
  sender: { account_id: 'acct_alice', handle: '@alice', address: 'AliceAddr', owner: null },
  recipient: { account_id: 'acct_bob', handle: '@bob', address: 'BobAddr', owner: null },
  to: '@bob',
  asset: 'USDC',
  confidential: true,
  status: 'confirmed',
  sealedAmount: 's1.sealed',
  senderEncryptedAmount: 'for-alice',
  recipientEncryptedAmount: 'for-bob',
  senderEncryptedMemo: 'memo-for-alice',
  recipientEncryptedMemo: 'memo-for-bob',
  chainSignature: 'sig_1',
  failureReason: null,
  createdAt: new Date('2026-03-01T10:00:00.000Z'),
  updatedAt: new Date('2026-03-01T10:00:01.000Z'),
  confirmedAt: new Date('2026-03-01T10:00:01.500Z'),
};

describe('reconcileOutcome: how a pending transfer ends', () => {
  it('fails a transfer that never got a signature: nothing was sent, whatever the ledger or the age', () => {
    for (const ledgerSays of ['confirmed', 'failed', 'unknown'] as const) {
      for (const age of [0, GIVE_UP * 2]) {
        expect(reconcileOutcome(null, ledgerSays, age, GIVE_UP)).toEqual({
          status: 'failed',
          reason: 'settlement_interrupted',
          signature: null,
        });
      }
    }
  });

  it('confirms a signed transfer the ledger confirmed, keeping its signature', () => {
    expect(reconcileOutcome('sig_1', 'confirmed', 0, GIVE_UP)).toEqual({
      status: 'confirmed',
      signature: 'sig_1',
    });
    expect(reconcileOutcome('sig_1', 'confirmed', GIVE_UP * 10, GIVE_UP)).toEqual({
      status: 'confirmed',
      signature: 'sig_1',
    });
  });

  it('fails a signed transfer the ledger rejected, keeping its signature', () => {
    expect(reconcileOutcome('sig_1', 'failed', 0, GIVE_UP)).toEqual({
      status: 'failed',
      reason: 'ledger_rejected',
      signature: 'sig_1',
    });
  });

  it('waits for a signed transfer the ledger does not know yet, until its blockhash can have expired', () => {
    expect(reconcileOutcome('sig_1', 'unknown', 0, GIVE_UP)).toBe('wait');
    expect(reconcileOutcome('sig_1', 'unknown', GIVE_UP - 1, GIVE_UP)).toBe('wait');
  });

  it('gives up on a signed transfer still unknown at the limit: it can no longer land, and no signature is kept', () => {
    expect(reconcileOutcome('sig_1', 'unknown', GIVE_UP, GIVE_UP)).toEqual({
      status: 'failed',
      reason: 'settlement_interrupted',
      signature: null,
    });
  });
});

describe('toTransferResource', () => {
  it('shows the sender its own direction, ciphertext and memo', () => {
    expect(toTransferResource(transfer, 'acct_alice')).toEqual({
      transfer_id: 'tr_1',
      status: 'confirmed',
      direction: 'sent',
      from: '@alice',
      to: '@bob',
      asset: 'USDC',
      confidential: true,
      chain_signature: 'sig_1',
      encrypted_amount: 'for-alice',
      encrypted_memo: 'memo-for-alice',
      failure_reason: null,
      created_at: '2026-03-01T10:00:00.000Z',
      confirmed_at: '2026-03-01T10:00:01.500Z',
    });
  });

  it('shows the recipient its own direction, ciphertext and memo', () => {
    const seen = toTransferResource(transfer, 'acct_bob');
    expect(seen).toMatchObject({
      direction: 'received',
      encrypted_amount: 'for-bob',
      encrypted_memo: 'memo-for-bob',
    });
  });

  it("shows an agent's owner its agent's side: the sender's when its agents are on both sides", () => {
    const owner = { account_id: 'acct_olga', handle: '@olga' };
    const agentSent = { ...transfer, sender: { ...transfer.sender, owner } };
    expect(toTransferResource(agentSent, 'acct_olga')).toMatchObject({
      direction: 'sent',
      encrypted_amount: 'for-alice',
    });
    const agentReceived = { ...transfer, recipient: { ...transfer.recipient, owner } };
    expect(toTransferResource(agentReceived, 'acct_olga')).toMatchObject({
      direction: 'received',
      encrypted_amount: 'for-bob',
    });
    const bothAgents = { ...agentSent, recipient: { ...transfer.recipient, owner } };
    expect(toTransferResource(bothAgents, 'acct_olga').direction).toBe('sent');
    // A party reads its own side, even when it owns the other one.
    const toOwnAgent = {
      ...transfer,
      recipient: { ...transfer.recipient, owner: { account_id: 'acct_alice', handle: '@alice' } },
    };
    expect(toTransferResource(toOwnAgent, 'acct_alice').direction).toBe('sent');
    const fromOwnAgent = {
      ...transfer,
      sender: { ...transfer.sender, owner: { account_id: 'acct_bob', handle: '@bob' } },
    };
    expect(toTransferResource(fromOwnAgent, 'acct_bob').direction).toBe('received');
  });

  it('never carries a plaintext amount or the sealed one', () => {
    const text = JSON.stringify(toTransferResource(transfer, 'acct_alice'));
    expect(text).not.toContain('"amount"');
    expect(text).not.toContain('s1.sealed');
  });
});

describe('toTransferEvent', () => {
  it('never carries the amount of a confidential transfer, even when one is passed', () => {
    expect(toTransferEvent(transfer, '12.5')).not.toHaveProperty('amount');
  });

  it('carries the amount of a standard transfer when given', () => {
    expect(toTransferEvent({ ...transfer, confidential: false }, '12.5')).toMatchObject({
      amount: '12.5',
      confidential: false,
    });
  });

  it('adds failure_reason only to a failed transfer', () => {
    expect(toTransferEvent(transfer)).not.toHaveProperty('failure_reason');
    const failed = {
      ...transfer,
      status: 'failed' as const,
      failureReason: 'ledger_rejected',
      confirmedAt: null,
    };
    expect(toTransferEvent(failed)).toMatchObject({
      status: 'failed',
      failure_reason: 'ledger_rejected',
      confirmed_at: null,
    });
  });
});

describe('kycAllowsMoney', () => {
  it('lets verified and enhanced accounts move money, no one else', () => {
    expect(kycAllowsMoney('verified')).toBe(true);
    expect(kycAllowsMoney('enhanced')).toBe(true);
    expect(kycAllowsMoney('unverified')).toBe(false);
    expect(kycAllowsMoney('pending')).toBe(false);
    expect(kycAllowsMoney('rejected')).toBe(false);
  });
});
