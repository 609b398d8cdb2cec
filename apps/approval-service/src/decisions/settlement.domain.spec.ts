import { type CreateTransfer, type ResponseOf, type Result, type TransferResource } from '@cts/contracts';
import { followUpDelayMs, settlementIdempotencyKey, settlementOutcome } from './settlement.domain';

describe('settlementOutcome: what transfer-service’s answer means', () => {
  type Reply = Result<ResponseOf<typeof CreateTransfer>>;
  const transfer = (overrides: Partial<TransferResource>): Reply => ({
    ok: true,
    value: {
      kind: 'transfer',
      transfer: {
        transfer_id: 'tr_reserved',
        status: 'confirmed',
        direction: 'sent',
        from: '@owner/bot',
        to: '@shop',
        asset: 'USDC',
        confidential: true,
        chain_signature: 'sig',
        encrypted_amount: 'enc',
        encrypted_memo: null,
        failure_reason: null,
        created_at: '2026-03-10T12:31:00.000Z',
        confirmed_at: '2026-03-10T12:31:01.000Z',
        ...overrides,
      },
    },
  });
  const error = (
    code: 'insufficient_balance' | 'policy_violation' | 'service_unavailable' | 'internal_error',
    reason?: string,
  ): Reply => ({
    ok: false,
    error: { code, message: 'x', ...(reason ? { reason } : {}) },
  });

  it('approves on a confirmed or pending transfer', () => {
    expect(settlementOutcome(transfer({}))).toEqual({ kind: 'approved', transferId: 'tr_reserved' });
    expect(settlementOutcome(transfer({ status: 'pending', confirmed_at: null }))).toEqual({
      kind: 'approved',
      transferId: 'tr_reserved',
    });
  });

  it('fails on a refusal (the violation reason when there is one) and on a failed transfer', () => {
    expect(settlementOutcome(error('insufficient_balance'))).toEqual({
      kind: 'failed',
      reason: 'insufficient_balance',
      transferId: null,
    });
    expect(settlementOutcome(error('policy_violation', 'daily_limit_exceeded'))).toMatchObject({
      kind: 'failed',
      reason: 'daily_limit_exceeded',
    });
    expect(settlementOutcome(transfer({ status: 'failed', failure_reason: 'ledger_rejected' }))).toEqual({
      kind: 'failed',
      reason: 'ledger_rejected',
      transferId: 'tr_reserved',
    });
  });

  it('retries when the answer does not say whether the transfer exists', () => {
    expect(settlementOutcome(error('service_unavailable'))).toEqual({
      kind: 'retry',
      reason: 'service_unavailable',
    });
    expect(settlementOutcome(error('internal_error')).kind).toBe('retry');
  });

  it('uses one idempotency key per transaction', () => {
    expect(settlementIdempotencyKey({ id: 'atx_1' })).toBe('internal:approval:atx_1');
  });

  it('backs off follow-ups by doubling, up to ten minutes', () => {
    expect([0, 1, 2, 3].map((n) => followUpDelayMs(n, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(followUpDelayMs(50, 30_000)).toBe(600_000);
  });
});
