import {
  agentHandle,
  agentOwnerRefusal,
  type AccountState,
  canVerifyDomain,
  effectiveKycStatus,
  kycChangeRefusal,
  parseRecipient,
  toAccountResource,
} from './account.domain';

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

  it('refuses base58 that does not decode to 32 bytes', () => {
    for (const to of ['z'.repeat(44), 'z'.repeat(32), '2'.repeat(40)]) {
      expect(parseRecipient(to)).toEqual({ kind: 'invalid' });
    }
  });

  it('refuses what is none of these', () => {
    for (const to of ['@', '@bad handle', 'not a domain', '', 'http://example.com']) {
      expect(parseRecipient(to)).toEqual({ kind: 'invalid' });
    }
  });
});

const accountOf = (type: AccountState['type'], kycStatus: AccountState['kycStatus']): AccountState => ({
  id: `acct_${type}`,
  handle: '@acme',
  type,
  kycStatus,
  ownerAccountId: type === 'agent' ? 'acct_personal' : null,
  addresses: { live: null, test: null },
  createdAt: new Date(0),
});

describe('the KYC that governs an account', () => {
  it("is an agent's owner's current status when the owner was downgraded after the agent's creation", () => {
    expect(effectiveKycStatus(accountOf('agent', 'verified'), accountOf('personal', 'unverified'))).toBe(
      'unverified',
    );
    expect(effectiveKycStatus(accountOf('agent', 'enhanced'), accountOf('personal', 'pending'))).toBe(
      'pending',
    );
  });

  it("is an agent's owner's current status when the owner was verified after the agent's creation", () => {
    expect(effectiveKycStatus(accountOf('agent', 'pending'), accountOf('personal', 'verified'))).toBe(
      'verified',
    );
    expect(effectiveKycStatus(accountOf('agent', 'unverified'), accountOf('business', 'enhanced'))).toBe(
      'enhanced',
    );
  });

  it('refuses money to an agent whose owner cannot be found', () => {
    expect(effectiveKycStatus(accountOf('agent', 'verified'), null)).toBe('unverified');
  });

  it("is an account's own status when it is no agent", () => {
    expect(effectiveKycStatus(accountOf('personal', 'verified'), null)).toBe('verified');
    expect(effectiveKycStatus(accountOf('business', 'pending'), null)).toBe('pending');
  });
});

describe('who may have its KYC set by an operator', () => {
  it('lets personal and business accounts have theirs set', () => {
    expect(kycChangeRefusal(accountOf('personal', 'pending'))).toBeNull();
    expect(kycChangeRefusal(accountOf('business', 'pending'))).toBeNull();
  });

  it("refuses an agent, whose KYC is its owner's, naming the owner", () => {
    expect(kycChangeRefusal(accountOf('agent', 'pending'))).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message: "An agent's KYC is its owner's: set the KYC of its owner (acct_personal) instead",
        param: 'account_id',
      },
    });
  });
});

describe('who may own a new agent', () => {
  it('lets personal and business accounts own agents', () => {
    expect(agentOwnerRefusal({ type: 'personal' })).toBeNull();
    expect(agentOwnerRefusal({ type: 'business' })).toBeNull();
  });

  it('refuses an agent as the owner of another agent', () => {
    expect(agentOwnerRefusal({ type: 'agent' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it("names an agent after its owner's handle", () => {
    expect(agentHandle('@alice', 'shopper')).toBe('@alice/shopper');
  });
});
