import { Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import {
  type AgentTransactionResource,
  ApproveAgentTransaction,
  type AgentTransactionView,
  GetAgentTransaction,
  DomainError,
  GetAccount,
  ListPendingApprovals,
  type PendingApprovalList,
  RejectAgentTransaction,
} from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { CurrentCaller } from '../http/caller.decorator';
import { ApiErrors, V1Controller } from '../http/endpoint.decorators';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import {
  AgentTransactionSchema,
  AgentTransactionViewSchema,
  PendingApprovalListSchema,
  TransactionIdParam,
} from './approvals.schemas';

const DECISION_ERRORS: [number, string][] = [
  [403, 'not_agent_owner'],
  [404, 'transaction_not_found'],
  [409, 'transaction_expired, transaction_already_decided'],
];

const KYC_CLEARED = new Set(['verified', 'enhanced']);

/** The human in the loop (spec §3.2, §4.3): the owner's queue of held agent transactions. */
@V1Controller('agents/transactions', 'agents')
export class AgentTransactionsController {
  constructor(private readonly commands: CommandBus) {}

  @Get('pending')
  @ApiOperation({
    summary:
      'Agent transactions awaiting the caller’s approval in the key’s environment, soonest-expiring first',
  })
  @ApiOkResponse({
    description: 'The pending approvals (no amounts)',
    standardSchema: PendingApprovalListSchema,
  })
  async pending(@CurrentCaller() caller: Caller): Promise<PendingApprovalList> {
    const { account_id, environment } = caller.principal;
    return unwrap(
      await this.commands.send(
        ListPendingApprovals,
        { owner_account_id: account_id, environment },
        caller.context,
      ),
    );
  }

  @Get(':transaction_id')
  @ApiOperation({
    summary:
      'A held agent transaction’s current state, for its owner and for the agent itself (anyone else: 404)',
  })
  @ApiOkResponse({ description: 'The transaction', standardSchema: AgentTransactionViewSchema })
  @ApiErrors([404, 'transaction_not_found'])
  async get(
    @CurrentCaller() caller: Caller,
    @Param('transaction_id', { schema: TransactionIdParam }) transactionId: string,
  ): Promise<AgentTransactionView> {
    const { account_id, environment } = caller.principal;
    return unwrap(
      await this.commands.send(
        GetAgentTransaction,
        { caller_account_id: account_id, environment, transaction_id: transactionId },
        caller.context,
      ),
    );
  }

  @Post(':transaction_id/approve')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Approve a held agent transaction: it is signed and submitted at once, under the policy in force now',
  })
  @ApiOkResponse({ description: 'The updated transaction', standardSchema: AgentTransactionSchema })
  @ApiErrors([403, 'not_agent_owner, kyc_required'], ...DECISION_ERRORS.slice(1))
  async approve(
    @CurrentCaller() caller: Caller,
    @Param('transaction_id', { schema: TransactionIdParam }) transactionId: string,
  ): Promise<AgentTransactionResource> {
    // Approving moves the owner's money through its agent: the owner's KYC as it is now must allow it
    // (transfer-service checks it again when the transfer settles).
    const { account_id, environment } = caller.principal;
    const owner = unwrap(await this.commands.send(GetAccount, { account_id, environment }, caller.context));
    if (!KYC_CLEARED.has(owner.kyc_status)) {
      throw new DomainError('kyc_required', 'Approving a payment needs a verified account (KYC)');
    }
    return this.decide(ApproveAgentTransaction, caller, transactionId);
  }

  @Post(':transaction_id/reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject a held agent transaction: it is discarded and no funds move' })
  @ApiOkResponse({ description: 'The updated transaction', standardSchema: AgentTransactionSchema })
  @ApiErrors(...DECISION_ERRORS)
  async reject(
    @CurrentCaller() caller: Caller,
    @Param('transaction_id', { schema: TransactionIdParam }) transactionId: string,
  ): Promise<AgentTransactionResource> {
    return this.decide(RejectAgentTransaction, caller, transactionId);
  }

  private async decide(
    // Approve and reject share one contract shape; only the topic differs.
    contract: typeof ApproveAgentTransaction,
    caller: Caller,
    transactionId: string,
  ): Promise<AgentTransactionResource> {
    const { account_id, environment } = caller.principal;
    return unwrap(
      await this.commands.send(
        contract,
        { caller_account_id: account_id, environment, transaction_id: transactionId },
        caller.context,
      ),
    );
  }
}
