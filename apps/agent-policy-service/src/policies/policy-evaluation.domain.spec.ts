import fc from 'fast-check';
import { evaluateSpend, type SpendAttempt, spendingDay } from './policy-evaluation.domain';
import { validateNewPolicy } from './policy-validation.domain';
import { type SpendPolicyRules } from './spend-policy.domain';

const USDC = 1_000_000n;
const SOL = 1_000_000_000n;

const policy = (raw: Record<string, unknown> = {}): SpendPolicyRules => {
  const result = validateNewPolicy({ daily_limit_usdc: 500, per_transaction_limit_usdc: 100, ...raw });
  if (!result.ok) {
    throw new Error(result.problem.message);
  }
  return result.value;
};

const attempt = (overrides: Partial<SpendAttempt> = {}): SpendAttempt => ({
  to: '@bob',
  asset: 'USDC',
  amount: 10n * USDC,
  at: new Date('2026-03-10T12:00:00Z'),
  mode: 'attempt',
  spentToday: 0n,
  ...overrides,
});

const reasonOf = (p: SpendPolicyRules, a: SpendAttempt) => {
  const verdict = evaluateSpend(p, a);
  return verdict.outcome === 'deny' ? verdict.reason : verdict.outcome;
};

describe('evaluateSpend', () => {
  it('allows a transaction within every rule', () => {
    expect(evaluateSpend(policy(), attempt())).toEqual({ outcome: 'allow' });
  });

  it.each([
    [{ assets: ['SOL'] }, {}, 'asset_not_allowed'],
    [{}, { asset: 'BTC' }, 'asset_not_allowed'],
    [{}, { asset: 'SOL' }, 'asset_not_allowed'],
    [{ allowed_recipients: ['@alice', '*.shop.io'] }, {}, 'recipient_not_allowed'],
    [{ allowed_recipients: [] }, {}, 'recipient_not_allowed'],
    [{ allowed_recipients: ['*.shop.io'] }, { to: 'shop.io' }, 'recipient_not_allowed'],
    [{ active_hours: '13:00-17:00' }, {}, 'outside_active_hours'],
    [{ active_hours: '22:00-06:00' }, {}, 'outside_active_hours'],
    [{ active_hours: '09:00-12:00' }, {}, 'outside_active_hours'],
    [{ active_hours: '09:00-17:00', timezone: 'America/New_York' }, {}, 'outside_active_hours'],
    [{}, { amount: 100n * USDC + 1n }, 'per_transaction_limit_exceeded'],
    [{}, { amount: 60n * USDC, spentToday: 440n * USDC + 1n }, 'daily_limit_exceeded'],
    [{ per_transaction_limit_usdc: 500 }, { amount: 500n * USDC + 1n }, 'per_transaction_limit_exceeded'],
  ])('policy %j, attempt %j: %s', (raw, overrides, reason) => {
    expect(reasonOf(policy(raw), attempt(overrides))).toBe(reason);
  });

  it('allows an x402 payment by the resource host or, failing that, by a raw address naming its payee', () => {
    const payTo = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
    const byHost = policy({ allowed_recipients: ['*.api.example'] });
    expect(reasonOf(byHost, attempt({ to: 'data.api.example', payTo }))).toBe('allow');
    expect(reasonOf(byHost, attempt({ to: 'evil.example', payTo }))).toBe('recipient_not_allowed');
    const byAddress = policy({ allowed_recipients: [payTo] });
    expect(reasonOf(byAddress, attempt({ to: 'evil.example', payTo }))).toBe('allow');
    expect(
      reasonOf(
        byAddress,
        attempt({ to: 'evil.example', payTo: 'So11111111111111111111111111111111111111112' }),
      ),
    ).toBe('recipient_not_allowed');
    // A domain pattern never matches a payee address.
    expect(reasonOf(byHost, attempt({ to: 'evil.example', payTo: 'api.example' }))).toBe(
      'recipient_not_allowed',
    );
  });

  it('allows at the limits exactly: per transaction, daily, and the start of active hours', () => {
    expect(reasonOf(policy(), attempt({ amount: 100n * USDC }))).toBe('allow');
    expect(reasonOf(policy(), attempt({ amount: 100n * USDC, spentToday: 400n * USDC }))).toBe('allow');
    expect(reasonOf(policy({ active_hours: '12:00-12:01' }), attempt())).toBe('allow');
    expect(reasonOf(policy({ active_hours: '11:00-12:00' }), attempt())).toBe('outside_active_hours');
  });

  it('reads active hours in the policy time zone, across midnight', () => {
    const night = policy({ active_hours: '22:00-06:00', timezone: 'Asia/Tokyo' }); // 12:00Z is 21:00 in Tokyo
    expect(reasonOf(night, attempt())).toBe('outside_active_hours');
    expect(reasonOf(night, attempt({ at: new Date('2026-03-10T13:00:00Z') }))).toBe('allow');
    expect(reasonOf(night, attempt({ at: new Date('2026-03-10T20:59:00Z') }))).toBe('allow');
    expect(reasonOf(night, attempt({ at: new Date('2026-03-10T21:00:00Z') }))).toBe('outside_active_hours');
  });

  it('checks in order: asset, recipient, active hours, per transaction, daily', () => {
    const strict = policy({ assets: ['USDC'], allowed_recipients: ['@alice'], active_hours: '01:00-02:00' });
    const everythingWrong = attempt({
      asset: 'SOL',
      to: '@bob',
      amount: 1000n * USDC,
      spentToday: 1000n * USDC,
    });
    expect(reasonOf(strict, everythingWrong)).toBe('asset_not_allowed');
    expect(reasonOf(strict, { ...everythingWrong, asset: 'USDC' })).toBe('recipient_not_allowed');
    expect(reasonOf(strict, { ...everythingWrong, asset: 'USDC', to: '@alice' })).toBe(
      'outside_active_hours',
    );
    const open = policy({ allowed_recipients: ['@alice'] });
    expect(reasonOf(open, { ...everythingWrong, asset: 'USDC', to: '@alice' })).toBe(
      'per_transaction_limit_exceeded',
    );
    expect(reasonOf(open, { ...everythingWrong, asset: 'USDC', to: '@alice', amount: 1n })).toBe(
      'daily_limit_exceeded',
    );
  });

  it('holds only an amount strictly above the threshold, and only on an attempt', () => {
    const held = policy({ hitl_threshold_usdc: 50 });
    expect(reasonOf(held, attempt({ amount: 50n * USDC }))).toBe('allow');
    expect(reasonOf(held, attempt({ amount: 50n * USDC + 1n }))).toBe('hold');
    expect(reasonOf(held, attempt({ amount: 50n * USDC + 1n, mode: 'approval_recheck' }))).toBe('allow');
    expect(reasonOf(policy({ hitl_threshold_usdc: 0 }), attempt({ amount: 1n }))).toBe('hold');
  });

  it('checks the limits before the threshold: a held amount must still fit them', () => {
    const held = policy({ hitl_threshold_usdc: 50 });
    expect(reasonOf(held, attempt({ amount: 101n * USDC }))).toBe('per_transaction_limit_exceeded');
    expect(reasonOf(held, attempt({ amount: 60n * USDC, spentToday: 450n * USDC }))).toBe(
      'daily_limit_exceeded',
    );
    expect(
      reasonOf(held, attempt({ amount: 60n * USDC, spentToday: 450n * USDC, mode: 'approval_recheck' })),
    ).toBe('daily_limit_exceeded');
  });

  it('applies the limits in the asset’s own units (no price oracle): 100 means 100 SOL for SOL', () => {
    const both = policy({ assets: ['USDC', 'SOL'], hitl_threshold_usdc: 50 });
    expect(reasonOf(both, attempt({ asset: 'SOL', amount: 100n * SOL }))).toBe('hold');
    expect(reasonOf(both, attempt({ asset: 'SOL', amount: 100n * SOL + 1n }))).toBe(
      'per_transaction_limit_exceeded',
    );
    expect(reasonOf(both, attempt({ asset: 'SOL', amount: 10n * SOL, spentToday: 491n * SOL }))).toBe(
      'daily_limit_exceeded',
    );
    expect(reasonOf(both, attempt({ asset: 'SOL', amount: 1n }))).toBe('allow');
  });

  it('never puts an amount or a limit in a denial message', () => {
    const verdicts = [
      evaluateSpend(
        policy({ per_transaction_limit_usdc: 123.456789, daily_limit_usdc: 987.654321 }),
        attempt({ amount: 555_555_555n }),
      ),
      evaluateSpend(
        policy({ per_transaction_limit_usdc: 123.456789, daily_limit_usdc: 987.654321 }),
        attempt({ amount: 1n, spentToday: 987_654_321n }),
      ),
    ];
    for (const verdict of verdicts) {
      expect(verdict.outcome).toBe('deny');
      expect(JSON.stringify(verdict)).not.toMatch(/555|123|987|\d{3,}/);
    }
  });

  it('passes exactly when the amount fits both limits (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.bigInt({ min: 1n, max: 2_000_000n * USDC }),
        fc.bigInt({ min: 0n, max: 2_000_000n * USDC }),
        fc.constantFrom('USDC', 'SOL'),
        (a, b, amount, spentToday, asset) => {
          const [perTx, daily] = a <= b ? [a, b] : [b, a];
          const p = policy({
            per_transaction_limit_usdc: perTx,
            daily_limit_usdc: daily,
            assets: ['USDC', 'SOL'],
          });
          const unit = asset === 'SOL' ? SOL : USDC;
          const verdict = reasonOf(p, attempt({ asset, amount, spentToday }));
          const expected =
            amount > BigInt(perTx) * unit
              ? 'per_transaction_limit_exceeded'
              : spentToday + amount > BigInt(daily) * unit
                ? 'daily_limit_exceeded'
                : 'allow';
          expect(verdict).toBe(expected);
        },
      ),
    );
  });

  it('an approval re-check never holds, and otherwise agrees with the attempt (property)', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 200 })),
        fc.bigInt({ min: 1n, max: 200n * USDC }),
        (threshold, amount) => {
          const p = policy({ hitl_threshold_usdc: threshold });
          const first = reasonOf(p, attempt({ amount }));
          const recheck = reasonOf(p, attempt({ amount, mode: 'approval_recheck' }));
          expect(recheck).not.toBe('hold');
          expect(recheck).toBe(first === 'hold' ? 'allow' : first);
        },
      ),
    );
  });
});

describe('spendingDay', () => {
  it('is the calendar day in the policy time zone', () => {
    const at = new Date('2026-03-10T23:30:00Z');
    expect(spendingDay({ timezone: 'UTC' }, at)).toBe('2026-03-10');
    expect(spendingDay({ timezone: 'Europe/Paris' }, at)).toBe('2026-03-11');
    expect(spendingDay({ timezone: 'America/Los_Angeles' }, new Date('2026-03-11T07:59:00Z'))).toBe(
      '2026-03-11',
    );
    expect(spendingDay({ timezone: 'America/Los_Angeles' }, new Date('2026-03-11T06:59:00Z'))).toBe(
      '2026-03-10',
    );
  });
});
