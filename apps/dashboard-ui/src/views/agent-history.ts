import { type AgentTransaction } from '@cts/sdk';
import { type ViewContext } from '../app/view';
import { amountElement } from '../ui/amount';
import { cell, h, replaceChildren, table } from '../ui/dom';
import { idElement, timeElement } from '../ui/format';

const STATUS_WORDS: Record<string, string> = {
  pending_approval: 'Waiting for your approval',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired (nobody decided)',
  failed: 'Approved, then failed',
};

function row(context: ViewContext, tx: AgentTransaction): HTMLTableRowElement {
  const amount = tx.encrypted_amount
    ? amountElement(context.amounts.amount(tx.encrypted_amount, tx.asset ?? 'USDC'), tx.asset)
    : '—';
  const status = STATUS_WORDS[tx.status] ?? tx.status;
  return h(
    'tr',
    { attrs: { 'data-transaction-id': tx.transaction_id } },
    cell('Requested', timeElement(tx.requested_at)),
    cell('To', tx.to ?? ''),
    cell('Amount', amount),
    cell('Status', tx.failure_reason ? `${status}: ${tx.failure_reason}` : status),
    cell('Decided', tx.decided_at ? timeElement(tx.decided_at) : '—'),
    cell('Transfer', tx.transfer_id ? idElement(tx.transfer_id) : '—'),
  );
}

/** The agent's payments that were held for approval, newest first, and what became of each. */
export async function renderAgentHistory(
  context: ViewContext,
  section: HTMLElement,
  accountId: string,
): Promise<void> {
  const title = h('h2', { id: 'agent-history' }, 'Held payments');
  replaceChildren(section, title, h('p', { class: 'summary' }, 'Loading…'));
  try {
    const [page] = await Promise.all([
      context.client.agentTransactions(accountId, { limit: 20 }),
      context.amounts.prepare(),
    ]);
    if (page.transactions.length === 0) {
      replaceChildren(section, title, h('p', {}, 'No payment of this agent has been held for approval.'));
      return;
    }
    const { table: element, body } = table('Payments held for approval, newest first', [
      'Requested',
      'To',
      'Amount',
      'Status',
      'Decided',
      'Transfer',
    ]);
    body.append(...page.transactions.map((tx) => row(context, tx)));
    replaceChildren(section, title, element);
  } catch (error) {
    replaceChildren(section, title, h('p', {}, 'The held payments could not be loaded.'));
    context.fail(error);
  }
}
