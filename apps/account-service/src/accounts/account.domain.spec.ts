import { type AccountState, canVerifyDomain, parseRecipient, toAccountResource } from './account.domain';

const account: AccountState = {
  id: 'acct_1',
  handle: '@alice',
  type: 'personal',
  kycStatus: 'verified',
  ownerAccountId: null,
  addresses: { test: 'TestAddress', live: 'LiveAddress' },
  createdAt: new Date('2026-02-03T04:05:06.789Z'),
};

describe('toAccountResource', () => {
  it('shows the account with the address of the caller’s ledger', () => {
    expect(toAccountResource(account, 'test')).toEqual({
      account_id: 'acct_1',
      handle: '@alice',
      type: 'personal',
      public_key: 'TestAddress',
      kyc_status: 'verified',
      created_at: '2026-02-03T04:05:06.789Z',
    });
    expect(toAccountResource(account, 'live').public_key).toBe('LiveAddress');
  });

  it('shows operators (no key environment) the live address', () => {
    expect(toAccountResource(account, null).public_key).toBe('LiveAddress');
  });
});

describe('canVerifyDomain', () => {
  it('lets only business accounts verify a domain', () => {
    expect(canVerifyDomain('business')).toBe(true);
    expect(canVerifyDomain('personal')).toBe(false);
    expect(canVerifyDomain('agent')).toBe(false);
  });
});

describe('parseRecipient', () => {
  it('reads a handle case-insensitively, agents’ namespaced handles included', () => {
    expect(parseRecipient('@Alice')).toEqual({ kind: 'handle', handle: '@alice' });
    expect(parseRecipient(' @acme/payroll ')).toEqual({ kind: 'handle', handle: '@acme/payroll' });
  });

  it('reads a domain case-insensitively', () => {
    expect(parseRecipient('Shop.Example.COM')).toEqual({ kind: 'domain', domain: 'shop.example.com' });
  });

  it('keeps a base58 address exactly as written', () => {
    const address = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
    expect(parseRecipient(address)).toEqual({ kind: 'address', address });
  });

  it('refuses what is none of these', () => {
    for (const to of ['@', '@bad handle', 'not a domain', '', 'http://example.com']) {
      expect(parseRecipient(to)).toEqual({ kind: 'invalid' });
    }
  });
});
