import { type AccountParty } from '@cts/contracts';

/** Two verified people's accounts, as account-service resolves them: the unit tests' parties. */
export const alice: AccountParty = {
  account_id: 'acct_alice',
  handle: '@alice',
  type: 'personal',
  kyc_status: 'verified',
  address: 'AliceAddress1111111111111111111111111111111',
  owner: null,
};

export const bob: AccountParty = {
  ...alice,
  account_id: 'acct_bob',
  handle: '@bob',
  address: 'BobAddress11111111111111111111111111111111',
};
