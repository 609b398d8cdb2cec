import fc from 'fast-check';
import { applyPolicyPatch, validateNewPolicy } from './policy-validation.domain';
import { type SpendPolicyRules, toSpendPolicyResource } from './spend-policy.domain';

const minimal = { daily_limit_usdc: 500, per_transaction_limit_usdc: 100 };

const rules = (raw: unknown): SpendPolicyRules => {
  const result = validateNewPolicy(raw);
  if (!result.ok) {
    throw new Error(result.problem.message);
  }
  return result.value;
};

const problem = (raw: unknown) => {
  const result = validateNewPolicy(raw);
  return result.ok ? null : result.problem;
};

describe('validateNewPolicy', () => {
  it('fills the defaults: anyone, USDC, always active, UTC, no hold, 60-minute window', () => {
    expect(rules(minimal)).toEqual({
      dailyLimit: 500_000_000n,
      perTransactionLimit: 100_000_000n,
      allowedRecipients: ['*'],
      assets: ['USDC'],
      activeHours: null,
      timezone: 'UTC',
      hitlThreshold: null,
      approvalWindowMinutes: 60,
    });
  });

  it('keeps every given field, normalising asset codes and the time zone spelling', () => {
    expect(
      rules({
        ...minimal,
        allowed_recipients: ['@Bob', '*.shop.io'],
        assets: ['usdc', 'SOL', 'Usdc'],
        active_hours: '22:00-06:00',
        timezone: 'europe/paris',
        hitl_threshold_usdc: 50.25,
        approval_window_minutes: 10_080,
      }),
    ).toEqual({
      dailyLimit: 500_000_000n,
      perTransactionLimit: 100_000_000n,
      allowedRecipients: ['@Bob', '*.shop.io'],
      assets: ['USDC', 'SOL'],
      activeHours: '22:00-06:00',
      timezone: 'Europe/Paris',
      hitlThreshold: 50_250_000n,
      approvalWindowMinutes: 10_080,
    });
  });

  it('accepts an empty recipient list (nobody), an empty asset list, zero limits and explicit nulls', () => {
    expect(
      rules({
        daily_limit_usdc: 0,
        per_transaction_limit_usdc: 0,
        allowed_recipients: [],
        assets: [],
        active_hours: null,
        hitl_threshold_usdc: null,
      }),
    ).toMatchObject({
      dailyLimit: 0n,
      allowedRecipients: [],
      assets: [],
      activeHours: null,
      hitlThreshold: null,
    });
  });

  it('lets the threshold sit above the limits (it then never holds)', () => {
    expect(rules({ ...minimal, hitl_threshold_usdc: 10_000 }).hitlThreshold).toBe(10_000_000_000n);
  });

  it.each([
    [{ per_transaction_limit_usdc: 1 }, 'daily_limit_usdc', 'required'],
    [{ daily_limit_usdc: 1 }, 'per_transaction_limit_usdc', 'required'],
    [{ ...minimal, daily_limit_usdc: -1 }, 'daily_limit_usdc', 'negative'],
    [{ ...minimal, per_transaction_limit_usdc: -0.5 }, 'per_transaction_limit_usdc', 'negative'],
    [{ ...minimal, daily_limit_usdc: '500' }, 'daily_limit_usdc', 'number'],
    [{ ...minimal, daily_limit_usdc: null }, 'daily_limit_usdc', 'number'],
    [{ ...minimal, per_transaction_limit_usdc: 1.0000001 }, 'per_transaction_limit_usdc', '6 decimals'],
    [
      { daily_limit_usdc: 100, per_transaction_limit_usdc: 100.000001 },
      'per_transaction_limit_usdc',
      'must not exceed daily_limit_usdc',
    ],
    [{ ...minimal, allowed_recipients: '*' }, 'allowed_recipients', 'array of strings'],
    [{ ...minimal, allowed_recipients: [1] }, 'allowed_recipients', 'array of strings'],
    [
      { ...minimal, allowed_recipients: ['@bob', '*.'] },
      'allowed_recipients',
      'pattern 1 ("*.") has an empty label',
    ],
    [{ ...minimal, allowed_recipients: ['shop.*.io'] }, 'allowed_recipients', 'wildcard'],
    [{ ...minimal, allowed_recipients: ['a..io'] }, 'allowed_recipients', 'empty label'],
    [
      { ...minimal, allowed_recipients: Array.from({ length: 101 }, () => '*') },
      'allowed_recipients',
      'at most 100',
    ],
    [{ ...minimal, assets: ['USDC', 'BTC'] }, 'assets', 'unknown asset "BTC"'],
    [{ ...minimal, assets: 'USDC' }, 'assets', 'array of strings'],
    [{ ...minimal, active_hours: '9-17' }, 'active_hours', 'HH:MM-HH:MM'],
    [{ ...minimal, active_hours: '24:00-06:00' }, 'active_hours', 'HH:MM-HH:MM'],
    [{ ...minimal, active_hours: '08:00-08:00' }, 'active_hours', 'same time'],
    [{ ...minimal, active_hours: 9 }, 'active_hours', 'string'],
    [{ ...minimal, timezone: 'Mars/Olympus' }, 'timezone', 'IANA'],
    [{ ...minimal, timezone: null }, 'timezone', 'IANA'],
    [{ ...minimal, hitl_threshold_usdc: -5 }, 'hitl_threshold_usdc', 'negative'],
    [{ ...minimal, approval_window_minutes: 0 }, 'approval_window_minutes', '1 to 10080'],
    [{ ...minimal, approval_window_minutes: 10_081 }, 'approval_window_minutes', '1 to 10080'],
    [{ ...minimal, approval_window_minutes: 1.5 }, 'approval_window_minutes', '1 to 10080'],
    [{ ...minimal, approval_window_minutes: '60' }, 'approval_window_minutes', '1 to 10080'],
    [{ ...minimal, max_amount: 5 }, 'max_amount', 'not a spend policy field'],
    [{ ...minimal, policy_id: 'pol_x' }, 'policy_id', 'not a spend policy field'],
    [{ ...minimal, ['__proto__']: 1 }, '__proto__', 'not a spend policy field'],
  ])('refuses %j: %s %s', (raw, field, message) => {
    expect(problem(raw)).toEqual({ field, message: expect.stringContaining(message) });
  });

  it('refuses what is not an object, naming no field', () => {
    for (const raw of [null, 5, 'policy', [minimal]]) {
      expect(problem(raw)).toEqual({ field: null, message: 'must be an object' });
    }
  });

  it('names the unknown field before judging the known ones', () => {
    expect(problem({ daily_limit_usdc: -1, extra: true })?.field).toBe('extra');
  });

  it('round-trips: the resource of any valid policy, sent back, is the same policy', () => {
    const limit = fc.integer({ min: 0, max: 1_000_000_000 }).map((micros) => micros / 1_000_000);
    fc.assert(
      fc.property(
        limit,
        limit,
        fc.option(limit),
        fc.integer({ min: 1, max: 10_080 }),
        fc.subarray(['USDC', 'SOL']),
        (a, b, threshold, window, assets) => {
          const created = rules({
            daily_limit_usdc: Math.max(a, b),
            per_transaction_limit_usdc: Math.min(a, b),
            hitl_threshold_usdc: threshold,
            approval_window_minutes: window,
            assets,
          });
          const {
            policy_id: _id,
            updated_at: _at,
            ...fields
          } = toSpendPolicyResource({
            ...created,
            id: 'pol_1',
            agentAccountId: 'acct_1',
            environment: 'live',
            updatedAt: new Date(0),
          });
          expect(rules(fields)).toEqual(created);
        },
      ),
    );
  });
});

describe('applyPolicyPatch', () => {
  const current = rules({
    ...minimal,
    allowed_recipients: ['@bob'],
    hitl_threshold_usdc: 50,
    active_hours: '09:00-17:00',
  });
  const patch = (raw: unknown) => applyPolicyPatch(current, raw);

  it('changes only the given fields and lists them', () => {
    expect(patch({ per_transaction_limit_usdc: 200, assets: ['SOL'] })).toEqual({
      ok: true,
      value: {
        rules: { ...current, perTransactionLimit: 200_000_000n, assets: ['SOL'] },
        changed: ['per_transaction_limit_usdc', 'assets'],
      },
    });
  });

  it('clears the active hours and the threshold with null', () => {
    expect(patch({ active_hours: null, hitl_threshold_usdc: null })).toEqual({
      ok: true,
      value: {
        rules: { ...current, activeHours: null, hitlThreshold: null },
        changed: ['active_hours', 'hitl_threshold_usdc'],
      },
    });
  });

  it('reports no change for an empty patch or one that repeats the current values', () => {
    expect(patch({})).toEqual({ ok: true, value: { rules: current, changed: [] } });
    expect(patch({ daily_limit_usdc: 500, allowed_recipients: ['@bob'], timezone: 'utc' })).toEqual({
      ok: true,
      value: { rules: current, changed: [] },
    });
  });

  it('validates the merged policy, naming the field that was sent', () => {
    expect(patch({ daily_limit_usdc: 99 })).toEqual({
      ok: false,
      problem: {
        field: 'daily_limit_usdc',
        message: 'per_transaction_limit_usdc must not exceed daily_limit_usdc',
      },
    });
    expect(patch({ per_transaction_limit_usdc: 501 })).toMatchObject({
      ok: false,
      problem: { field: 'per_transaction_limit_usdc' },
    });
    expect(patch({ per_transaction_limit_usdc: 600, daily_limit_usdc: 550 })).toMatchObject({
      ok: false,
      problem: { field: 'per_transaction_limit_usdc' },
    });
    expect(patch({ per_transaction_limit_usdc: 600, daily_limit_usdc: 600 })).toMatchObject({ ok: true });
  });

  it('refuses unknown, read-only and invalid fields like creation does', () => {
    expect(patch({ updated_at: '2026-01-01T00:00:00Z' })).toMatchObject({
      ok: false,
      problem: { field: 'updated_at' },
    });
    expect(patch({ allowed_recipients: ['*.'] })).toMatchObject({
      ok: false,
      problem: { field: 'allowed_recipients' },
    });
    expect(patch({ timezone: 'Nowhere/City' })).toMatchObject({ ok: false, problem: { field: 'timezone' } });
    expect(patch({ daily_limit_usdc: null })).toMatchObject({
      ok: false,
      problem: { field: 'daily_limit_usdc' },
    });
  });

  it('never changes a field it was not given', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 1_000_000 }), (daily) => {
        const result = patch({ daily_limit_usdc: daily });
        expect(result.ok && { ...result.value.rules, dailyLimit: current.dailyLimit }).toEqual(current);
        expect(result.ok && result.value.changed).toEqual(daily === 500 ? [] : ['daily_limit_usdc']);
      }),
    );
  });
});
