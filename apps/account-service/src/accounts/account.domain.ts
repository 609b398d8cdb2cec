import {
  type Account,
  type AccountType,
  ANY_HANDLE_PATTERN,
  DOMAIN_PATTERN,
  type Environment,
  fail,
  type KycStatus,
  type Result,
} from '@cts/contracts';
import { isAddress } from '@solana/kit';

export interface AccountState {
  id: string;
  handle: string;
  type: AccountType;
  kycStatus: KycStatus;
  ownerAccountId: string | null;
  addresses: Record<Environment, string | null>;
  createdAt: Date;
}

/**
 * `public_key` is the account's address on the caller's ledger: test keys see the test address, live
 * keys the live one; operators (no key environment) see the live address.
 */
export function toAccountResource(account: AccountState, environment: Environment | null): Account {
  return {
    account_id: account.id,
    handle: account.handle,
    type: account.type,
    public_key: account.addresses[environment ?? 'live'],
    kyc_status: account.kycStatus,
    created_at: account.createdAt.toISOString(),
  };
}

/**
 * The KYC that governs an account's money. An agent acts under its owner's identity checks as they
 * are now: a downgraded owner cannot keep paying through its agents, and an owner verified later
 * need not have its agents re-checked. The status stored on an agent's row (its owner's at creation)
 * is never read. An agent without its owner (which creation never makes) is refused money.
 */
export function effectiveKycStatus(account: AccountState, owner: AccountState | null): KycStatus {
  if (account.type !== 'agent') {
    return account.kycStatus;
  }
  return owner?.kycStatus ?? 'unverified';
}

/** Why an operator may not set `account`'s KYC, or null when it may: an agent has none of its own. */
export function kycChangeRefusal(
  account: Pick<AccountState, 'type' | 'ownerAccountId'>,
): Result<never> | null {
  if (account.type === 'agent') {
    return fail(
      'invalid_request',
      `An agent's KYC is its owner's: set the KYC of its owner (${account.ownerAccountId ?? 'unknown'}) instead`,
      { param: 'account_id' },
    );
  }
  return null;
}

/** Only businesses prove domain ownership: a domain in `to` resolves to the business that verified it. */
export function canVerifyDomain(type: AccountType): boolean {
  return type === 'business';
}

export type RecipientReference =
  | { kind: 'handle'; handle: string }
  | { kind: 'domain'; domain: string }
  | { kind: 'address'; address: string }
  | { kind: 'invalid' };

/**
 * Reads the `to` of a transfer (spec §4.1): handles and domains case-insensitively, addresses as
 * written. An address is base58 that decodes to exactly 32 bytes: one of another length would pass
 * here and fail only when the transaction is built.
 */
export function parseRecipient(to: string): RecipientReference {
  const trimmed = to.trim();
  const lower = trimmed.toLowerCase();
  if (lower.startsWith('@')) {
    return ANY_HANDLE_PATTERN.test(lower) ? { kind: 'handle', handle: lower } : { kind: 'invalid' };
  }
  if (isAddress(trimmed)) {
    return { kind: 'address', address: trimmed };
  }
  return DOMAIN_PATTERN.test(lower) ? { kind: 'domain', domain: lower } : { kind: 'invalid' };
}

/** Why `owner` may not own a new agent, or null when it may: only personal and business accounts do. */
export function agentOwnerRefusal(owner: Pick<AccountState, 'type'>): Result<never> | null {
  if (owner.type === 'agent') {
    return fail('forbidden', 'An agent cannot create agents: only personal and business accounts own agents');
  }
  return null;
}

/** An agent's handle: its owner's handle and its name (`@alice/shopper`). */
export const agentHandle = (ownerHandle: string, name: string): string => `${ownerHandle}/${name}`;
