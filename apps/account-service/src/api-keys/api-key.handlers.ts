import { Injectable } from '@nestjs/common';
import {
  ApiKeyRevoked,
  AuthenticateApiKey,
  contextFrom,
  CreateApiKey,
  type Envelope,
  fail,
  ListApiKeys,
  newId,
  ok,
  RecordApiKeyUsage,
  type RequestOf,
  type ResponseOf,
  type Result,
  RevokeApiKey,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { UnitOfWork } from '@cts/persistence';
import { AccountRepository } from '../accounts/account.repository';
import { authenticates, mayIssueKeyFor, toApiKeyResource } from './api-key.domain';
import { ApiKeyRepository } from './api-key.repository';

@Injectable()
export class ApiKeyHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  @OnCommand(CreateApiKey)
  async create(
    message: Envelope<RequestOf<typeof CreateApiKey>>,
  ): Promise<Result<ResponseOf<typeof CreateApiKey>>> {
    const { account_id, key, issued_by } = message.payload;
    // Once per command: a redelivered one gets the first reply, not a unique violation on the hash.
    const { value } = await this.unitOfWork.once(message, 'create-api-key', async (tx) => {
      const account = await this.accounts.findById(account_id, tx.manager);
      if (!account) {
        return fail('account_not_found', 'No such account');
      }
      if (!mayIssueKeyFor(account, issued_by)) {
        return fail(
          'forbidden',
          account.type === 'agent'
            ? 'An agent cannot create API keys: its owner provisions them (POST /v1/agents/{account_id}/api-keys)'
            : 'A key can only be created for its own account',
        );
      }
      const created = await this.apiKeys.insert(
        { id: newId('key'), accountId: account_id, ...key },
        tx.manager,
      );
      return ok(toApiKeyResource(created));
    });
    return value;
  }

  @OnCommand(ListApiKeys)
  async list(
    message: Envelope<RequestOf<typeof ListApiKeys>>,
  ): Promise<Result<ResponseOf<typeof ListApiKeys>>> {
    const keys = await this.apiKeys.listForAccount(message.payload.account_id, message.payload.environment);
    return ok({ api_keys: keys.map(toApiKeyResource) });
  }

  @OnCommand(RevokeApiKey)
  async revoke(
    message: Envelope<RequestOf<typeof RevokeApiKey>>,
  ): Promise<Result<ResponseOf<typeof RevokeApiKey>>> {
    const { account_id, key_id, environment } = message.payload;
    return this.unitOfWork.run(async (tx) => {
      const key = await this.apiKeys.findForAccount(account_id, key_id, environment, tx.manager);
      if (!key) {
        return fail('api_key_not_found', 'No such API key');
      }
      const revokedAt = key.revokedAt ?? new Date();
      if (!key.revokedAt) {
        await this.apiKeys.revoke(key.id, revokedAt, tx.manager);
        await tx.emit(
          ApiKeyRevoked,
          account_id,
          { account_id, key_id, revoked_at: revokedAt.toISOString() },
          contextFrom(message),
        );
      }
      return ok({ api_key: toApiKeyResource({ ...key, revokedAt }), key_hash: key.keyHash });
    });
  }

  @OnCommand(AuthenticateApiKey)
  async authenticate(
    message: Envelope<RequestOf<typeof AuthenticateApiKey>>,
  ): Promise<Result<ResponseOf<typeof AuthenticateApiKey>>> {
    const key = await this.apiKeys.findByHash(message.payload.key_hash);
    if (!key || !authenticates(key, message.payload.key_hash)) {
      return fail('unauthorized', 'Missing or invalid API key');
    }
    return ok({ account_id: key.accountId, key_id: key.id, environment: key.environment });
  }

  @OnCommand(RecordApiKeyUsage)
  async recordUsage(
    message: Envelope<RequestOf<typeof RecordApiKeyUsage>>,
  ): Promise<Result<ResponseOf<typeof RecordApiKeyUsage>>> {
    // Counts are increments: the inbox makes a redelivered flush count once.
    const { value } = await this.unitOfWork.once(message, 'record-usage', async (tx) => {
      let recorded = 0;
      for (const usage of message.payload.usages) {
        if (
          await this.apiKeys.recordUsage(
            usage.key_id,
            usage.requests,
            new Date(usage.last_used_at),
            tx.manager,
          )
        ) {
          recorded++;
        }
      }
      return ok({ recorded });
    });
    return value;
  }
}
