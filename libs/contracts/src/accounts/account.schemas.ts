import { z } from 'zod';
import { Environment } from '../environment';
import { withoutControlCharacters } from '../text';

export const AccountType = z.enum(['personal', 'business', 'agent']);
export type AccountType = z.infer<typeof AccountType>;

export const KycStatus = z.enum(['unverified', 'pending', 'verified', 'enhanced']);
export type KycStatus = z.infer<typeof KycStatus>;

/** `@name`: lowercase letters, digits and `_`, 3 to 30 characters. */
export const HANDLE_PATTERN = /^@[a-z0-9_]{3,30}$/;
export const Handle = z
  .string()
  .regex(HANDLE_PATTERN, 'must be @ followed by 3-30 lowercase letters, digits or _');

/** An agent's handle, namespaced under its owner: `@<owner_name>/<agent_name>` (spec §2.3). */
export const ANY_HANDLE_PATTERN = /^@[a-z0-9_]{3,30}(\/[a-z0-9_-]{1,32})?$/;
export const AnyHandle = z.string().regex(ANY_HANDLE_PATTERN);

export const DOMAIN_PATTERN = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const Domain = z
  .string()
  .regex(DOMAIN_PATTERN, 'must be a lowercase DNS name such as shop.example.com');

const Timestamp = z.iso.datetime();

/** Spec §2.2. `public_key`: the account's address on the caller's ledger (test or live). */
export const Account = z.object({
  account_id: z.string(),
  handle: z.string(),
  type: AccountType,
  public_key: z.string().nullable(),
  kyc_status: KycStatus,
  created_at: Timestamp,
});
export type Account = z.infer<typeof Account>;

export const ApiKey = z.object({
  key_id: z.string(),
  name: z.string(),
  environment: Environment,
  /** The first characters of the secret (`svc_test_AbCd`), to recognise a key without revealing it. */
  prefix: z.string(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  request_count: z.number().int().nonnegative(),
  revoked_at: Timestamp.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** Who an API key authenticates: what every `/v1` request is scoped to. */
export const Principal = z.object({
  account_id: z.string(),
  key_id: z.string(),
  environment: Environment,
});
export type Principal = z.infer<typeof Principal>;

export const ApiKeyName = withoutControlCharacters(z.string().trim().min(1).max(64));
