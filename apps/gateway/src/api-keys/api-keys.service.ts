import { Injectable } from '@nestjs/common';
import {
  CreateApiKey,
  GetKeyTotals,
  type Environment,
  ListApiKeys,
  type MessageContext,
  type NewApiKey,
  RevokeApiKey,
} from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { type z } from 'zod';
import { apiKeyDisplayPrefix, generateApiKeySecret } from '../auth/api-key-secret.domain';
import { ApiKeyHasher } from '../auth/api-key-hasher';
import { PrincipalCache } from '../auth/principal-cache';
import { unwrap } from '../http/result';
import { ApiKeyUsage } from './api-key-usage';
import { withPendingUsage } from './api-key-usage.domain';
import { type ApiKeyWithSecret, type ApiKeyWithUsage } from './api-keys.schemas';

export interface IssuedApiKey {
  /** What account-service stores: the keyed hash and a display prefix, never the secret. */
  key: z.input<typeof NewApiKey>;
  secret: string;
}

/** API key use cases shared by the `/v1/api-keys` routes and the admin API. */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly commands: CommandBus,
    private readonly hasher: ApiKeyHasher,
    private readonly principals: PrincipalCache,
    private readonly usage: ApiKeyUsage,
  ) {}

  issue(name: string, environment: Environment): IssuedApiKey {
    const secret = generateApiKeySecret(environment);
    return {
      secret,
      key: { name, environment, key_hash: this.hasher.hash(secret), prefix: apiKeyDisplayPrefix(secret) },
    };
  }

  /** `issuedBy`: the caller's account (account-service refuses an agent's own key), null for an operator. */
  async create(
    accountId: string,
    name: string,
    environment: Environment,
    issuedBy: string | null,
    context: MessageContext,
  ): Promise<ApiKeyWithSecret> {
    const issued = this.issue(name, environment);
    const created = unwrap(
      await this.commands.send(
        CreateApiKey,
        { account_id: accountId, key: issued.key, issued_by: issuedBy },
        context,
      ),
    );
    return { ...created, secret: issued.secret };
  }

  /**
   * The account's keys with exact usage: recorded counts plus those not flushed yet, and each key's
   * total USDC transferred as a ciphertext only the account opens (transfer-service keeps it).
   */
  async list(
    accountId: string,
    environment: Environment,
    context: MessageContext,
  ): Promise<{ api_keys: ApiKeyWithUsage[] }> {
    const [keys, totals] = await Promise.all([
      this.commands.send(ListApiKeys, { account_id: accountId, environment }, context),
      this.commands.send(GetKeyTotals, { account_id: accountId }, context),
    ]);
    const { api_keys } = unwrap(keys);
    const totalOf = new Map(unwrap(totals).totals.map((total) => [total.key_id, total.encrypted_usdc_total]));
    const pending = await this.usage.pending();
    return {
      api_keys: api_keys.map((key) => ({
        ...withPendingUsage(key, pending.get(key.key_id)),
        encrypted_usdc_total: totalOf.get(key.key_id) ?? null,
      })),
    };
  }

  /**
   * Revokes a key of `environment` (the caller key's: the other world's keys are out of reach).
   * Effective on the very next request, on every replica: the tombstone is written before we answer.
   */
  async revoke(
    accountId: string,
    keyId: string,
    environment: Environment,
    context: MessageContext,
  ): Promise<void> {
    const { key_hash } = unwrap(
      await this.commands.send(RevokeApiKey, { account_id: accountId, key_id: keyId, environment }, context),
    );
    await this.principals.revoke(key_hash);
  }
}
