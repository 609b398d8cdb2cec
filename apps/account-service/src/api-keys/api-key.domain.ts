import { type ApiKey, type Environment } from '@cts/contracts';
import { timingSafeEqual } from 'node:crypto';

export interface ApiKeyState {
  id: string;
  accountId: string;
  name: string;
  environment: Environment;
  keyHash: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  requestCount: number;
  revokedAt: Date | null;
}

export function toApiKeyResource(key: ApiKeyState): ApiKey {
  return {
    key_id: key.id,
    name: key.name,
    environment: key.environment,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    request_count: key.requestCount,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

/** The stored hash matches the presented one, compared in constant time; a revoked key never matches. */
export function authenticates(key: ApiKeyState, presentedHash: string): boolean {
  const stored = Buffer.from(key.keyHash, 'hex');
  const presented = Buffer.from(presentedHash, 'hex');
  return key.revokedAt === null && stored.length === presented.length && timingSafeEqual(stored, presented);
}

/** Usage flushed from several gateway replicas may arrive out of order: keep the latest time. */
export function laterOf(current: Date | null, candidate: Date): Date {
  return current !== null && current > candidate ? current : candidate;
}

/**
 * Who may get a new key for `account`: an operator (null), the account itself unless it is an agent
 * (an agent minting keys would escape its owner's control), and an agent's owner.
 */
export function mayIssueKeyFor(
  account: { id: string; type: string; ownerAccountId: string | null },
  issuedBy: string | null,
): boolean {
  if (issuedBy === null) {
    return true;
  }
  return account.type === 'agent' ? issuedBy === account.ownerAccountId : issuedBy === account.id;
}
