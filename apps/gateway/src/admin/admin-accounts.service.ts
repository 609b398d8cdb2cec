import { Injectable } from '@nestjs/common';
import { type ApiKey, CreateAccount, type MessageContext } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { AccountProvisioning } from '../accounts/account-provisioning';
import { ApiKeysService, type IssuedApiKey } from '../api-keys/api-keys.service';
import { type ApiKeyWithSecret } from '../api-keys/api-keys.schemas';
import { unwrap } from '../http/result';
import { type CreateAccountBody, type CreatedAccount } from './admin.schemas';

@Injectable()
export class AdminAccountsService {
  constructor(
    private readonly commands: CommandBus,
    private readonly apiKeys: ApiKeysService,
    private readonly provisioning: AccountProvisioning,
  ) {}

  /**
   * Ledger accounts and custody keys first (transfer-service), then the account itself
   * (account-service). The gateway makes both API key secrets; account-service receives only their
   * hashes. A handle found taken at the second step leaves unused keys behind, never an account
   * without a ledger.
   */
  async create(body: CreateAccountBody, context: MessageContext): Promise<CreatedAccount> {
    const provisioned = await this.provisioning.provision(context);
    const test = this.apiKeys.issue('Default test key', 'test');
    const live = this.apiKeys.issue('Default live key', 'live');
    const created = unwrap(
      await this.commands.send(
        CreateAccount,
        {
          ...body,
          account_id: provisioned.accountId,
          addresses: provisioned.addresses,
          api_keys: [test.key, live.key],
        },
        { ...context, accountId: provisioned.accountId },
      ),
    );
    return {
      account: created.account,
      decryption_key: provisioned.decryptionKey,
      api_keys: { test: reveal(created.api_keys, test), live: reveal(created.api_keys, live) },
    };
  }
}

function reveal(keys: ApiKey[], issued: IssuedApiKey): ApiKeyWithSecret {
  const key = keys.find((k) => k.environment === issued.key.environment && k.prefix === issued.key.prefix);
  if (!key) {
    throw new Error(`account-service did not return the new ${issued.key.environment} key`);
  }
  return { ...key, secret: issued.secret };
}
