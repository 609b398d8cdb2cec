import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { environmentOfNewKey } from './api-keys.domain';
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
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: "List the account's API keys with their usage (never their secrets)" })
  @ApiOkResponse({
    description: 'Every key of the account, revoked ones included',
    standardSchema: ApiKeyListSchema,
  })
  list(@CurrentCaller() caller: Caller) {
    return this.apiKeys.list(caller.principal.account_id, caller.context);
  }

  @Post()
  @ApiOperation({ summary: 'Create an API key; its secret is in this response only' })
  @ApiCreatedResponse({ description: 'The new key with its secret', standardSchema: ApiKeyWithSecretSchema })
  @ApiErrors([403, 'forbidden: a test key cannot create a live key'])
  create(
    @CurrentCaller() caller: Caller,
    @Body({ schema: CreateApiKeyBody }) body: CreateApiKeyBody,
  ): Promise<ApiKeyWithSecret> {
    const environment = environmentOfNewKey(caller.principal.environment, body.environment);
    return this.apiKeys.create(caller.principal.account_id, body.name, environment, caller.context);
  }

  @Delete(':key_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an API key: refused from the very next request' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrors([404, 'api_key_not_found'])
  async revoke(
    @CurrentCaller() caller: Caller,
    @Param('key_id', { schema: KeyIdParam }) keyId: string,
  ): Promise<void> {
    await this.apiKeys.revoke(caller.principal.account_id, keyId, caller.context);
  }
}
