import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CommandBus } from '@cts/messaging';
import { environmentOfNewKey } from '../api-keys/api-keys.domain';
import { ApiKeysService } from '../api-keys/api-keys.service';
import {
  ApiKeyListSchema,
  type ApiKeyWithSecret,
  ApiKeyWithSecretSchema,
  KeyIdParam,
} from '../api-keys/api-keys.schemas';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { requireAgentOwner } from './agent-ownership';
import { AgentIdParam, AgentKeyBody } from './agents.schemas';

/**
 * An owner provisions, lists and revokes its agents' keys (an agent's own key cannot create keys).
 * Listing and revoking act on the calling key's environment, like `/v1/api-keys`.
 */
@V1Controller('agents', 'agents')
export class AgentApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly apiKeys: ApiKeysService,
  ) {}

  @Post(':account_id/api-keys')
  @ApiOperation({
    summary: 'Provision an API key for an agent the caller owns; its secret is in this response only',
  })
  @ApiCreatedResponse({ description: 'The key with its secret', standardSchema: ApiKeyWithSecretSchema })
  @ApiErrors([403, 'not_agent_owner'], [404, 'agent_not_found'])
  async create(
    @CurrentCaller() caller: Caller,
    @Param('account_id', { schema: AgentIdParam }) agentId: string,
    @Body({ schema: AgentKeyBody }) body: AgentKeyBody,
  ): Promise<ApiKeyWithSecret> {
    await this.requireOwner(caller, agentId);
    const environment = environmentOfNewKey(caller.principal.environment, body.environment);
    return this.apiKeys.create(agentId, body.name, environment, caller.principal.account_id, caller.context);
  }

  @Get(':account_id/api-keys')
  @ApiOperation({
    summary: "An owned agent's API keys of the calling key's environment, with usage (never secrets)",
  })
  @ApiOkResponse({ description: "The agent's keys, revoked ones included", standardSchema: ApiKeyListSchema })
  @ApiErrors([403, 'not_agent_owner'], [404, 'agent_not_found'])
  async list(
    @CurrentCaller() caller: Caller,
    @Param('account_id', { schema: AgentIdParam }) agentId: string,
  ) {
    await this.requireOwner(caller, agentId);
    return this.apiKeys.list(agentId, caller.principal.environment, caller.context);
  }

  @Delete(':account_id/api-keys/:key_id')
  @HttpCode(204)
  @ApiOperation({ summary: "Revoke an owned agent's API key: refused from the very next request" })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrors([403, 'not_agent_owner'], [404, 'agent_not_found, api_key_not_found'])
  async revoke(
    @CurrentCaller() caller: Caller,
    @Param('account_id', { schema: AgentIdParam }) agentId: string,
    @Param('key_id', { schema: KeyIdParam }) keyId: string,
  ): Promise<void> {
    await this.requireOwner(caller, agentId);
    await this.apiKeys.revoke(agentId, keyId, caller.principal.environment, caller.context);
  }

  private requireOwner(caller: Caller, agentId: string): Promise<void> {
    return requireAgentOwner(
      this.commands,
      caller,
      agentId,
      'Only the account that owns this agent can manage its API keys',
    );
  }
}
