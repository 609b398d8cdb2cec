import { type Account, type AccountType, type KycStatus } from '@cts/contracts';

export interface AccountState {
  id: string;
  handle: string;
  type: AccountType;
  kycStatus: KycStatus;
  publicKey: string | null;
  createdAt: Date;
}

export function toAccountResource(account: AccountState): Account {
  return {
    account_id: account.id,
    handle: account.handle,
    type: account.type,
    public_key: account.publicKey,
    kyc_status: account.kycStatus,
    created_at: account.createdAt.toISOString(),
  };
}

/** Only businesses prove domain ownership: a domain in `to` resolves to the business that verified it. */
export function canVerifyDomain(type: AccountType): boolean {
  return type === 'business';
}
