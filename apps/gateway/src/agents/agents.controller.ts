import { Body, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { GetSpendPolicy, UpdateSpendPolicy } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { AgentAccountsService } from './agent-accounts.service';
import {
  AgentIdParam,
  AgentListSchema,
  CreateAgentBody,
  CreatedAgentSchema,
  SpendPolicyPatch,
  SpendPolicySchema,
} from './agents.schemas';

@V1Controller('accounts/me/agents', 'agents')
export class OwnAgentsController {
  constructor(private readonly agents: AgentAccountsService) {}

  @Post()
  @ApiOperation({ summary: 'Create an agent account under the caller, with its spend policy' })
  @ApiCreatedResponse({
    description: 'The agent account and its decryption key (shown once)',
    standardSchema: CreatedAgentSchema,
  })
  @ApiErrors(
    [400, 'invalid_policy (a spend policy field), invalid_request (the name or the body)'],
    [403, 'forbidden: an agent cannot create agents'],
    [409, 'handle_taken'],
  )
  create(@CurrentCaller() caller: Caller, @Body({ schema: CreateAgentBody }) body: CreateAgentBody) {
    return this.agents.create(caller, body);
  }

  @Get()
  @ApiOperation({
    summary: "The caller's agent accounts, each with its address and policy in the key's environment",
  })
  @ApiOkResponse({ description: 'Every agent the caller owns', standardSchema: AgentListSchema })
  list(@CurrentCaller() caller: Caller) {
    return this.agents.list(caller);
  }
}

@V1Controller('agents', 'agents')
export class AgentsController {
  constructor(private readonly commands: CommandBus) {}

  @Get(':account_id/spend-policy')
  @ApiOperation({ summary: "An agent's spend policy in the key's environment (owner only)" })
  @ApiOkResponse({ description: 'The policy', standardSchema: SpendPolicySchema })
  @ApiErrors([403, 'not_agent_owner'], [404, 'agent_not_found'])
  async policy(
    @CurrentCaller() caller: Caller,
    @Param('account_id', { schema: AgentIdParam }) agentId: string,
  ) {
    const { account_id, environment } = caller.principal;
    return unwrap(
      await this.commands.send(
        GetSpendPolicy,
        { caller_account_id: account_id, agent_account_id: agentId, environment },
        caller.context,
      ),
    );
  }

  @Patch(':account_id/spend-policy')
  @ApiOperation({
    summary:
      "Change some of an agent's policy fields in the key's environment; applies to its next transaction there",
  })
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
        {
          caller_account_id: caller.principal.account_id,
          agent_account_id: agentId,
          environment: caller.principal.environment,
          patch,
        },
        caller.context,
      ),
    );
  }
}
