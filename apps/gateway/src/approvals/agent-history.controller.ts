import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type AgentTransactionPage, ListAgentTransactions } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { requireAgentOwner } from '../agents/agent-ownership';
import { AgentIdParam } from '../agents/agents.schemas';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { AgentTransactionPageSchema, ListAgentTransactionsQuery } from './approvals.schemas';

/** Issue 16: what became of an agent's held transactions, for its owner (and the agent itself). */
@V1Controller('agents', 'agents')
export class AgentHistoryController {
  constructor(private readonly commands: CommandBus) {}

  @Get(':account_id/transactions')
  @ApiOperation({
    summary:
      "An agent's held transactions in the key's environment, newest first: for its owner (with encrypted_amount) and for the agent itself",
  })
  @ApiOkResponse({ description: 'A page of held transactions', standardSchema: AgentTransactionPageSchema })
  @ApiErrors([403, 'not_agent_owner'], [404, 'agent_not_found'])
  async list(
    @CurrentCaller() caller: Caller,
    @Param('account_id', { schema: AgentIdParam }) agentId: string,
    @Query({ schema: ListAgentTransactionsQuery }) query: ListAgentTransactionsQuery,
  ): Promise<AgentTransactionPage> {
    const { account_id, environment } = caller.principal;
    if (account_id !== agentId) {
      await requireAgentOwner(
        this.commands,
        caller,
        agentId,
        'Only the agent and the account that owns it can read its transactions',
      );
    }
    return unwrap(
      await this.commands.send(
        ListAgentTransactions,
        { caller_account_id: account_id, environment, agent_account_id: agentId, ...query },
        caller.context,
      ),
    );
  }
}
