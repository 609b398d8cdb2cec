import {
  checkAmount,
  classifyLedgerFailure,
  needsConfidentialRecipientCheck,
  publicAmountOf,
  recipientReadinessRefusal,
  selfSendRefusal,
} from './transfer-rules.domain';
import { alice, bob } from '../testing/parties';

const MAX = (1n << 48n) - 1n;

const codeOf = (result: { ok: boolean; error?: { code: string; param?: string } } | null) =>
  result === null || result.ok ? null : `${result.error?.code}:${result.error?.param}`;

describe('amount bounds', () => {
  it('accepts one base unit and the largest amount a confidential transfer can prove', () => {
    expect(checkAmount(1n, 'USDC', MAX)).toEqual({ ok: true, value: 1n });
    expect(checkAmount(MAX, 'USDC', MAX)).toEqual({ ok: true, value: MAX });
  });

  it('refuses zero, a negative amount, one unit above the maximum and an unreadable amount on `amount`', () => {
    for (const amount of [0n, -1n, MAX + 1n, null]) {
      expect(codeOf(checkAmount(amount, 'USDC', MAX))).toBe('invalid_request:amount');
    }
  });

  it('names the maximum in the asset’s own decimals', () => {
    const usdc = checkAmount(0n, 'USDC', MAX);
    const sol = checkAmount(0n, 'SOL', MAX);
    expect(usdc.ok || usdc.error.message).toBe('amount must be positive and at most 281474976.710655 USDC');
    expect(sol.ok || sol.error.message).toBe('amount must be positive and at most 281474.976710655 SOL');
  });
});

describe('self-send', () => {
  it('refuses sending to the same account', () => {
    expect(codeOf(selfSendRefusal(alice, { ...alice, kind: 'account' }))).toBe('invalid_request:to');
  });

  it('refuses sending to the sender’s own address given as an external address', () => {
    expect(codeOf(selfSendRefusal(alice, { kind: 'external', address: alice.address }))).toBe(
      'invalid_request:to',
    );
  });

  it('lets an account send to another account or to another address', () => {
    expect(selfSendRefusal(alice, { ...bob, kind: 'account' })).toBeNull();
    expect(selfSendRefusal(alice, { kind: 'external', address: bob.address })).toBeNull();
  });
});

describe('recipient readiness', () => {
  it('asks the ledger only for a confidential transfer to an address outside the service', () => {
    expect(needsConfidentialRecipientCheck({ kind: 'external', address: bob.address }, true)).toBe(true);
    expect(needsConfidentialRecipientCheck({ kind: 'external', address: bob.address }, false)).toBe(false);
    expect(needsConfidentialRecipientCheck({ ...bob, kind: 'account' }, true)).toBe(false);
  });

  it('refuses a recipient without a confidential balance, pointing to a standard transfer', () => {
    const refused = recipientReadinessRefusal(false);
    expect(codeOf(refused)).toBe('recipient_not_confidential_ready:to');
    expect(refused?.ok === false && refused.error.message).toContain('"confidential": false');
    expect(recipientReadinessRefusal(true)).toBeNull();
  });
});

describe('ledger failure classification', () => {
  it('fails the transfer for any ledger error raised before the transaction was signed', () => {
    expect(classifyLedgerFailure('ledger_unavailable', false)).toEqual({
      kind: 'failed',
      reason: 'ledger_unavailable',
    });
    expect(classifyLedgerFailure('transaction_failed', false)).toEqual({
      kind: 'failed',
      reason: 'transaction_failed',
    });
  });

  it('fails the transfer for an error that says a sent transaction failed for good', () => {
    for (const code of [
      'account_not_found',
      'account_not_confidential',
      'pending_balance_race',
      'transaction_failed',
      'invalid_amount',
      'unknown_asset',
    ]) {
      expect(classifyLedgerFailure(code, true)).toEqual({ kind: 'failed', reason: code });
    }
  });

  it('reports an on-chain shortfall as the client’s insufficient_balance', () => {
    expect(classifyLedgerFailure('insufficient_funds_onchain', true)).toEqual({
      kind: 'failed',
      reason: 'insufficient_balance',
    });
    expect(classifyLedgerFailure('insufficient_funds_onchain', false)).toEqual({
      kind: 'failed',
      reason: 'insufficient_balance',
    });
  });

  it('leaves a sent transaction whose fate is unknown (timeout, lost connection) undetermined', () => {
    expect(classifyLedgerFailure('ledger_unavailable', true)).toEqual({ kind: 'undetermined' });
    expect(classifyLedgerFailure('transaction_not_confirmed', true)).toEqual({ kind: 'undetermined' });
  });
});

describe('public amount', () => {
  it('gives a standard transfer’s amount in the asset’s decimals', () => {
    expect(publicAmountOf({ confidential: false, asset: 'USDC' }, 12_500_000n)).toBe('12.5');
    expect(publicAmountOf({ confidential: false, asset: 'SOL' }, 1n)).toBe('0.000000001');
  });

  it('never gives a confidential transfer’s amount', () => {
    expect(publicAmountOf({ confidential: true, asset: 'USDC' }, 12_500_000n)).toBeUndefined();
  });
});
