import { Body, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { GetSpendPolicy, ListAgents, UpdateSpendPolicy } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { environmentOfNewKey } from '../api-keys/api-keys.domain';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { type ApiKeyWithSecret, ApiKeyWithSecretSchema } from '../api-keys/api-keys.schemas';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { AgentAccountsService } from './agent-accounts.service';
import {
  AgentIdParam,
  AgentKeyBody,
  AgentListSchema,
  CreateAgentBody,
  CreatedAgentSchema,
  SpendPolicyPatch,
  SpendPolicySchema,
} from './agents.schemas';

@V1Controller('accounts/me/agents', 'agents')
export class OwnAgentsController {
  constructor(
    private readonly agents: AgentAccountsService,
    private readonly commands: CommandBus,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an agent account under the caller, with its spend policy' })
  @ApiCreatedResponse({ description: 'The agent account and its decryption key (shown once)', standardSchema: CreatedAgentSchema })
  @ApiErrors([400, 'invalid_policy'], [403, 'forbidden: an agent cannot create agents'], [409, 'handle_taken'])
  create(@CurrentCaller() caller: Caller, @Body({ schema: CreateAgentBody }) body: CreateAgentBody) {
    return this.agents.create(caller, body);
  }

  @Get()
  @ApiOperation({ summary: "The caller's agent accounts" })
  @ApiOkResponse({ description: 'Every agent the caller owns', standardSchema: AgentListSchema })
  async list(@CurrentCaller() caller: Caller) {
    return unwrap(await this.commands.send(ListAgents, { owner_account_id: caller.principal.account_id }, caller.context));
  }
}

@V1Controller('agents', 'agents')
export class AgentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly apiKeys: ApiKeysService,
  ) {}

  @Get(':account_id/spend-policy')
  @ApiOperation({ summary: "An agent's spend policy (owner only)" })
  @ApiOkResponse({ description: 'The policy', standardSchema: SpendPolicySchema })
  @ApiErrors([403, 'not_agent_owner'], [404, 'agent_not_found'])
  async policy(@CurrentCaller() caller: Caller, @Param('account_id', { schema: AgentIdParam }) agentId: string) {
    return unwrap(await this.commands.send(GetSpendPolicy, { caller_account_id: caller.principal.account_id, agent_account_id: agentId }, caller.context));
  }

  @Patch(':account_id/spend-policy')
  @ApiOperation({ summary: "Change some of an agent's policy fields; applies to its next transaction" })
  @ApiOkResponse({ description: 'The updated policy', standardSchema: SpendPolicySchema })
  @ApiErrors([400, 'invalid_policy'], [403, 'not_agent_owner'], [404, 'agent_not_found'])
  async updatePolicy(
    @CurrentCaller() caller: Caller,
    @Param('account_id', { schema: AgentIdParam }) agentId: string,
    @Body({ schema: SpendPolicyPatch }) patch: Record<string, unknown>,
  ) {
    return unwrap(
      await this.commands.send(
        UpdateSpendPolicy,
        { caller_account_id: caller.principal.account_id, agent_account_id: agentId, patch },
        caller.context,
      ),
    );
  }

  @Post(':account_id/api-keys')
  @ApiOperation({ summary: 'Provision an API key for an agent the caller owns; its secret is in this response only' })
  @ApiCreatedResponse({ description: 'The key with its secret', standardSchema: ApiKeyWithSecretSchema })
  @ApiErrors([403, 'not_agent_owner'], [404, 'agent_not_found'])
  async createKey(
    @CurrentCaller() caller: Caller,
    @Param('account_id', { schema: AgentIdParam }) agentId: string,
    @Body({ schema: AgentKeyBody }) body: AgentKeyBody,
  ): Promise<ApiKeyWithSecret> {
    // The policy read is the ownership check: the same answers (403/404) as the policy routes.
    unwrap(await this.commands.send(GetSpendPolicy, { caller_account_id: caller.principal.account_id, agent_account_id: agentId }, caller.context));
    return this.apiKeys.create(agentId, body.name, environmentOfNewKey(caller.principal.environment, body.environment), caller.context);
  }
}
