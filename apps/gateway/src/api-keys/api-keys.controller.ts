import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { GetAccount } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { environmentOfNewKey, refuseAgentKeyManagement } from './api-keys.domain';
import { ApiKeysService } from './api-keys.service';
import {
  ApiKeyListSchema,
  ApiKeyWithSecretSchema,
  type ApiKeyWithSecret,
  CreateApiKeyBody,
  KeyIdParam,
} from './api-keys.schemas';

@V1Controller('api-keys', 'api-keys')
export class ApiKeysController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly commands: CommandBus,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      "List the account's API keys of the calling key's environment with their usage (never their secrets)",
  })
  @ApiOkResponse({
    description: "Every key of the account in the calling key's environment, revoked ones included",
    standardSchema: ApiKeyListSchema,
  })
  @ApiErrors([403, "forbidden: an agent's key (its owner lists them at /v1/agents/{account_id}/api-keys)"])
  async list(@CurrentCaller() caller: Caller) {
    await this.refuseAgent(caller, 'list');
    const { account_id, environment } = caller.principal;
    return this.apiKeys.list(account_id, environment, caller.context);
  }

  @Post()
  @ApiOperation({ summary: 'Create an API key; its secret is in this response only' })
  @ApiCreatedResponse({ description: 'The new key with its secret', standardSchema: ApiKeyWithSecretSchema })
  @ApiErrors([403, "forbidden: a test key cannot create a live key; an agent's key cannot create keys"])
  create(
    @CurrentCaller() caller: Caller,
    @Body({ schema: CreateApiKeyBody }) body: CreateApiKeyBody,
  ): Promise<ApiKeyWithSecret> {
    const { account_id } = caller.principal;
    const environment = environmentOfNewKey(caller.principal.environment, body.environment);
    return this.apiKeys.create(account_id, body.name, environment, account_id, caller.context);
  }

  @Delete(':key_id')
  @HttpCode(204)
  @ApiOperation({
    summary: "Revoke an API key of the calling key's environment: refused from the very next request",
  })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrors(
    [403, "forbidden: an agent's key (its owner revokes them at /v1/agents/{account_id}/api-keys)"],
    [404, 'api_key_not_found'],
  )
  async revoke(
    @CurrentCaller() caller: Caller,
    @Param('key_id', { schema: KeyIdParam }) keyId: string,
  ): Promise<void> {
    await this.refuseAgent(caller, 'revoke');
    const { account_id, environment } = caller.principal;
    await this.apiKeys.revoke(account_id, keyId, environment, caller.context);
  }

  /** The principal names the account, not its type: one account read on these rarely used routes. */
  private async refuseAgent(caller: Caller, action: 'list' | 'revoke'): Promise<void> {
    const { account_id, environment } = caller.principal;
    const account = unwrap(await this.commands.send(GetAccount, { account_id, environment }, caller.context));
    refuseAgentKeyManagement(account.type, action);
  }
}
