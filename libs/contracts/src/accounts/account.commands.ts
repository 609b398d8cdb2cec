import { z } from 'zod';
import { defineCommand } from '../contract';
import { Environment } from '../environment';
import { CommandTopics } from '../topics';
import { PartyRef } from '../parties';
import {
  Account,
  AccountType,
  AnyHandle,
  ApiKey,
  ApiKeyName,
  Domain,
  KycStatus,
  Principal,
} from './account.schemas';

const KeyHash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * A new key as account-service stores it. The gateway generates the secret and sends only its keyed
 * hash: the secret never travels on a topic and never reaches a database.
 */
export const NewApiKey = z.object({
  name: ApiKeyName,
  environment: Environment,
  key_hash: KeyHash,
  prefix: z.string(),
});

export const CreateAccount = defineCommand(
  CommandTopics.accountCreate,
  z.object({
    /** Chosen by the caller, who provisioned the ledger accounts under it first. */
    account_id: z.string(),
    handle: AnyHandle,
    type: AccountType,
    kyc_status: KycStatus.default('unverified'),
    owner_account_id: z.string().nullable().default(null),
    /** The account's address on each ledger. */
    addresses: z.record(Environment, z.string()),
    api_keys: z.array(NewApiKey).max(4),
  }),
  z.object({ account: Account, api_keys: z.array(ApiKey) }),
);

export const GetAccount = defineCommand(
  CommandTopics.accountGet,
  z.object({ account_id: z.string(), environment: Environment.nullable().default(null) }),
  Account,
);

/** A party as transfer-service needs it to settle and to announce a transfer. */
export const AccountParty = z.object({
  account_id: z.string(),
  handle: z.string(),
  type: AccountType,
  kyc_status: KycStatus,
  address: z.string(),
  owner: PartyRef.nullable(),
});
export type AccountParty = z.infer<typeof AccountParty>;

/**
 * Who sends and who receives: `to` is a `@handle` (agents included), a verified domain, or an
 * address (ours, or outside the service: then only `address`).
 */
export const ResolveParties = defineCommand(
  CommandTopics.accountResolveRecipient,
  z.object({ sender_account_id: z.string(), to: z.string(), environment: Environment }),
  z.object({
    sender: AccountParty,
    recipient: z.discriminatedUnion('kind', [
      AccountParty.extend({ kind: z.literal('account') }),
      z.object({ kind: z.literal('external'), address: z.string() }),
    ]),
  }),
);

export const SetKycStatus = defineCommand(
  CommandTopics.accountSetKyc,
  z.object({ account_id: z.string(), kyc_status: KycStatus }),
  Account,
);

export const AddVerifiedDomain = defineCommand(
  CommandTopics.accountAddDomain,
  z.object({ account_id: z.string(), domain: Domain }),
  z.object({ account_id: z.string(), domain: z.string(), verified_at: z.iso.datetime() }),
);

/**
 * `issued_by`: the account whose key asks (the account itself, or an agent's owner), null for an
 * operator (admin API). An agent's keys are its owner's to provision: an agent asking for one gets
 * `forbidden`, as does anyone but the account itself or, for an agent, its owner.
 */
export const CreateApiKey = defineCommand(
  CommandTopics.apiKeyCreate,
  z.object({ account_id: z.string(), key: NewApiKey, issued_by: z.string().nullable() }),
  ApiKey,
);

/** The account's keys of one environment (a key sees only its own world's keys). */
export const ListApiKeys = defineCommand(
  CommandTopics.apiKeyList,
  z.object({ account_id: z.string(), environment: Environment }),
  z.object({ api_keys: z.array(ApiKey) }),
);

/** Revokes a key of `environment`; a key of the other environment is `api_key_not_found`. */
export const RevokeApiKey = defineCommand(
  CommandTopics.apiKeyRevoke,
  z.object({ account_id: z.string(), key_id: z.string(), environment: Environment }),
  z.object({ api_key: ApiKey, key_hash: KeyHash }),
);

export const AuthenticateApiKey = defineCommand(
  CommandTopics.apiKeyAuthenticate,
  z.object({ key_hash: KeyHash }),
  Principal,
);

export const RecordApiKeyUsage = defineCommand(
  CommandTopics.apiKeyRecordUsage,
  z.object({
    usages: z
      .array(
        z.object({
          key_id: z.string(),
          requests: z.number().int().positive(),
          last_used_at: z.iso.datetime(),
        }),
      )
      .max(1000),
  }),
  z.object({ recorded: z.number().int() }),
);
