import { type SpendPolicy } from '@cts/sdk';
import { explainRefusal, refusedQuoteAsset, summarizePolicy } from './refusals.domain';

const policy: SpendPolicy = {
  policy_id: 'pol_1',
  daily_limit_usdc: 100,
  per_transaction_limit_usdc: 25,
  allowed_recipients: ['@acme', '*.example.com'],
  assets: ['USDC'],
  active_hours: '08:00-20:00',
  timezone: 'Europe/Paris',
  hitl_threshold_usdc: 10,
  approval_window_minutes: 120,
  updated_at: '2030-01-01T00:00:00.000Z',
};
const usdc = { to: '@stranger', asset: 'USDC' };

describe('a policy refusal in words a model can act on', () => {
  it('names the limit it passed, with its unit', () => {
    expect(explainRefusal('per_transaction_limit_exceeded', usdc, policy)).toMatch(
      /^above the per-transaction limit of 25 USDC/,
    );
    expect(explainRefusal('per_transaction_limit_exceeded', { to: '@acme', asset: 'SOL' }, policy)).toMatch(
      /limit of 25 SOL/,
    );
    expect(explainRefusal('daily_limit_exceeded', usdc, policy)).toMatch(
      /daily limit of 100 USDC \(days count in Europe\/Paris\)/,
    );
  });

  it('names the recipient, the assets and the hours that are allowed', () => {
    expect(explainRefusal('recipient_not_allowed', usdc, policy)).toBe(
      'the recipient "@stranger" is not allowed; allowed recipients: "@acme", "*.example.com"',
    );
    expect(explainRefusal('recipient_not_allowed', usdc, { ...policy, allowed_recipients: [] })).toMatch(
      /allows no recipient at all/,
    );
    expect(explainRefusal('asset_not_allowed', { to: '@acme', asset: 'SOL' }, policy)).toBe(
      'the asset SOL is not allowed; allowed assets: USDC',
    );
    expect(explainRefusal('outside_active_hours', usdc, policy)).toBe(
      'outside the active hours 08:00-20:00 (Europe/Paris): try again within them',
    );
  });

  it('still names the rule when the policy cannot be read, and any unknown reason', () => {
    expect(explainRefusal('per_transaction_limit_exceeded', usdc, null)).toMatch(
      /^above the per-transaction limit: pay less/,
    );
    expect(explainRefusal('recipient_not_allowed', usdc, null)).toBe(
      'the recipient "@stranger" is not allowed',
    );
    expect(explainRefusal('something_new', usdc, policy)).toBe('refused by the spend policy (something_new)');
  });
});

describe('the asset of a refused x402 quote (named by mint, not code)', () => {
  it('is the one asset the policy allows, since the asset rule is checked first', () => {
    expect(refusedQuoteAsset('per_transaction_limit_exceeded', { ...policy, assets: ['SOL'] })).toBe('SOL');
    expect(refusedQuoteAsset('daily_limit_exceeded', policy)).toBe('USDC');
  });

  it('is unknown, and then unnamed in the words, rather than guessed', () => {
    expect(refusedQuoteAsset('asset_not_allowed', policy)).toBeNull();
    expect(
      refusedQuoteAsset('per_transaction_limit_exceeded', { ...policy, assets: ['USDC', 'SOL'] }),
    ).toBeNull();
    expect(refusedQuoteAsset('per_transaction_limit_exceeded', null)).toBeNull();
    const unknown = { to: 'api.example.com', asset: null };
    expect(explainRefusal('per_transaction_limit_exceeded', unknown, policy)).toBe(
      'above the per-transaction limit of 25: pay at most 25 in one payment',
    );
    expect(explainRefusal('asset_not_allowed', unknown, policy)).toBe(
      'the asset asked for is not allowed; allowed assets: USDC',
    );
  });
});

describe('the policy in words', () => {
  it('says every rule a model plans with', () => {
    const text = summarizePolicy(policy);
    for (const part of [
      'At most 25 per payment and 100 per day',
      'Assets: USDC.',
      '"@acme", "*.example.com"',
      '08:00-20:00 (Europe/Paris)',
      'above 10 waits',
      '120 minutes',
    ]) {
      expect(text).toContain(part);
    }
  });

  it('says when anything goes', () => {
    const open = summarizePolicy({
      ...policy,
      allowed_recipients: ['*'],
      active_hours: null,
      hitl_threshold_usdc: null,
    });
    expect(open).toContain('Recipients: anyone.');
    expect(open).toContain('Active at any hour.');
    expect(open).toContain('No payment waits for approval.');
  });
});
