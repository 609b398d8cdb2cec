import { Injectable } from '@nestjs/common';
import { type ApiKey, CreateAccount, type MessageContext } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { withOneTimeKey } from '../accounts/one-time-key';
import { ApiKeysService, type IssuedApiKey } from '../api-keys/api-keys.service';
import { type ApiKeyWithSecret } from '../api-keys/api-keys.schemas';
import { unwrap } from '../http/result';
import { type CreateAccountBody, type CreatedAccount } from './admin.schemas';

@Injectable()
export class AdminAccountsService {
  constructor(
    private readonly commands: CommandBus,
    private readonly apiKeys: ApiKeysService,
  ) {}

  /**
   * One command to account-service, which provisions the ledger accounts and custody keys
   * (transfer-service) and then records the account. The gateway makes both API key secrets;
   * account-service receives only their hashes. The `decryption_key` comes back encrypted to a
   * one-time key of this request.
   */
  create(body: CreateAccountBody, context: MessageContext): Promise<CreatedAccount> {
    const test = this.apiKeys.issue('Default test key', 'test');
    const live = this.apiKeys.issue('Default live key', 'live');
    return withOneTimeKey(async (recipientKey, open) => {
      const created = unwrap(
        await this.commands.send(
          CreateAccount,
          { kind: 'account', ...body, api_keys: [test.key, live.key], recipient_key: recipientKey },
          context,
        ),
      );
      return {
        account: created.account,
        decryption_key: open(created.encrypted_decryption_key),
        api_keys: { test: reveal(created.api_keys, test), live: reveal(created.api_keys, live) },
      };
    });
  }
}

function reveal(keys: ApiKey[], issued: IssuedApiKey): ApiKeyWithSecret {
  const key = keys.find((k) => k.environment === issued.key.environment && k.prefix === issued.key.prefix);
  if (!key) {
    throw new Error(`account-service did not return the new ${issued.key.environment} key`);
  }
  return { ...key, secret: issued.secret };
}
