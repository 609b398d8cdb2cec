import { z } from 'zod';
import { defineCommand } from '../contract';
import { Environment } from '../environment';
import { CommandTopics } from '../topics';
import { PartyRef } from '../parties';
import { Agent, AgentName, RawSpendPolicy } from '../agents/agent.schemas';
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

/**
 * Opens an account, in one command (issue 18): account-service has transfer-service make its custody
 * keys and ledger accounts (`transfer.provision-account`), for an agent has agent-policy-service
 * record the agent and its policy (`agent.create`), then records the account and its keys and
 * publishes `account.created`. The new account's `decryption_key` comes back encrypted to
 * `recipient_key`, a one-time ElGamal public key of the caller, so no topic and no stored reply holds
 * it in the clear. An agent's handle is `<owner handle>/<name>` and its KYC its owner's; it gets no
 * API key here (its owner provisions them). Errors: `handle_taken`; for an agent `account_not_found`
 * (owner), `forbidden` (the owner is an agent), and agent-policy-service's (`invalid_policy`, …).
 */
export const CreateAccount = defineCommand(
  CommandTopics.accountCreate,
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('account'),
      handle: AnyHandle,
      type: z.enum(['personal', 'business']),
      kyc_status: KycStatus.default('unverified'),
      api_keys: z.array(NewApiKey).max(4),
      recipient_key: z.string().min(1),
    }),
    z.object({
      kind: z.literal('agent'),
      owner_account_id: z.string().min(1),
      name: AgentName,
      spend_policy: RawSpendPolicy,
      recipient_key: z.string().min(1),
    }),
  ]),
  z.object({
    account: Account,
    api_keys: z.array(ApiKey),
    encrypted_decryption_key: z.string(),
    /** The agent as agent-policy-service recorded it (in the envelope's environment); null otherwise. */
    agent: Agent.nullable(),
  }),
  2,
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
