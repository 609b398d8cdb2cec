import { type AgentTransaction, type PendingApproval } from '@cts/sdk';
import { type PendingStatus } from '../app/pending-feed';
import { type Opened } from '../crypto/amounts';
import { pluralize } from '../ui/format';

/**
 * What the person is asked to approve, in words: "15 USDC to @shop from @me/shopper", or for an x402
 * payment "0.5 USDC to <payee address> for https://api.example.com/… from @me/shopper".
 */
export function describeApproval(item: PendingApproval, opened: Opened): string {
  const amount = amountText(item, opened);
  const payee = item.x402 ? `${item.x402.pay_to} for ${item.x402.resource}` : item.to;
  return `${amount} to ${payee} from ${item.agent}`;
}

function amountText(item: PendingApproval, opened: Opened): string {
  return opened.state === 'open'
    ? `${opened.text} ${item.asset ?? ''}`.trim()
    : `${item.asset ?? 'USDC'} (amount locked)`;
}

/**
 * The confirmation asked before approving. A transfer is signed and submitted at once; a held x402
 * payment is not: approving lets the agent pay exactly this resource, payee and amount when it asks
 * the resource again with `approved_transaction_id` (docs/agents.md), and nothing moves before.
 */
export function approveMessage(item: PendingApproval, opened: Opened, environment: 'test' | 'live'): string {
  if (item.x402) {
    return `Let ${item.agent} pay ${amountText(item, opened)} to ${item.x402.pay_to} for ${item.x402.resource} when it asks for the resource again. Nothing is paid until then; a quote with another payee or amount is refused.${
      environment === 'live' ? ' This is live: real funds move when it pays.' : ''
    }`;
  }
  return `Send ${describeApproval(item, opened)}. It is signed and submitted at once, under the agent's current policy.${
    environment === 'live' ? ' This is live: real funds move.' : ''
  }`;
}

/** The notice once approved: a transfer was submitted, an x402 payment only authorised. */
export function approvedNotice(item: PendingApproval, opened: Opened, result: AgentTransaction): string {
  if (item.x402) {
    const payment = result.transfer_id ? ` (payment ${result.transfer_id})` : '';
    return `Approved: ${item.agent} may now pay ${amountText(item, opened)} to ${item.x402.pay_to} for ${item.x402.resource} when it asks again${payment}; nothing is paid until then.`;
  }
  return result.transfer_id
    ? `Approved: transfer ${result.transfer_id} was signed and submitted.`
    : 'Approved.';
}

/** The inbox's summary line: "nothing is waiting" only when the list was loaded, never beside an error. */
export function inboxSummary(status: PendingStatus, loaded: boolean, waiting: number): string {
  if (!loaded) {
    return status === 'failed'
      ? 'The payments waiting for approval could not be loaded. Trying again every few seconds.'
      : 'Loading…';
  }
  const count =
    waiting === 0
      ? 'Nothing is waiting for your approval.'
      : `${pluralize(waiting, 'payment')} waiting for your decision.`;
  return status === 'failed' ? `${count} The last check failed: this list may be out of date.` : count;
}
