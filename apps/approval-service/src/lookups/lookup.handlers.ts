import { Injectable } from '@nestjs/common';
import {
  type AgentTransactionPage,
  type AgentTransactionView,
  type Envelope,
  fail,
  GetAgentTransaction,
  ListAgentTransactions,
  ok,
  type RequestOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { AgentTransactionRepository } from '../transactions/agent-transaction.repository';
import { toView, viewerOf } from './lookup.domain';

/** What became of a held transaction (issue 16): for its owner and for the agent that asked to pay. */
@Injectable()
export class LookupHandlers {
  constructor(private readonly transactions: AgentTransactionRepository) {}

  @OnCommand(GetAgentTransaction)
  async get(message: Envelope<RequestOf<typeof GetAgentTransaction>>): Promise<Result<AgentTransactionView>> {
    const { caller_account_id, environment, transaction_id } = message.payload;
    const tx = await this.transactions.findById(transaction_id);
    const viewer = tx ? viewerOf(tx, caller_account_id, environment) : null;
    if (!tx || !viewer) {
      return fail('transaction_not_found', 'No agent transaction with this ID');
    }
    return ok(toView(tx, viewer, new Date()));
  }

  @OnCommand(ListAgentTransactions)
  async list(
    message: Envelope<RequestOf<typeof ListAgentTransactions>>,
  ): Promise<Result<AgentTransactionPage>> {
    const { caller_account_id, environment, agent_account_id, status, limit, starting_after } =
      message.payload;
    const now = new Date();
    const rows = await this.transactions.listForAgent({
      agentAccountId: agent_account_id,
      environment,
      status,
      startingAfter: starting_after,
      // One more than asked tells whether there is a next page.
      limit: limit + 1,
      now,
    });
    const transactions: AgentTransactionView[] = [];
    for (const tx of rows.slice(0, limit)) {
      const viewer = viewerOf(tx, caller_account_id, environment);
      if (viewer) {
        transactions.push(toView(tx, viewer, now));
      }
    }
    return ok({ transactions, has_more: rows.length > limit });
  }
}
