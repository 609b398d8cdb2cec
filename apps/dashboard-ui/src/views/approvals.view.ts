import { CtsApiError, type PendingApproval } from '@cts/sdk';
import { type ViewContext, type ViewDefinition } from '../app/view';
import { type Opened } from '../crypto/amounts';
import { amountElement } from '../ui/amount';
import { confirmAction } from '../ui/dialog';
import { button, h, replaceChildren } from '../ui/dom';
import { idElement, pluralize, timeElement, timeLeft } from '../ui/format';
import { notify } from '../ui/notices';

interface Card {
  item: PendingApproval;
  element: HTMLLIElement;
  timeLeft: HTMLElement;
  actions: HTMLElement;
  expired: boolean;
}

/**
 * A held x402 payment's payee and resource (the API's `x402`, null for a transfer). `to` is then only
 * the resource's host, so the person must see these to know who is paid.
 */
interface X402Terms {
  pay_to: string;
  resource: string;
}

const x402Of = (item: PendingApproval): X402Terms | null =>
  (item as PendingApproval & { x402?: X402Terms | null }).x402 ?? null;

/**
 * What the person is asked to approve, in words: "15 USDC to @shop from @me/shopper", or for an x402
 * payment "0.5 USDC to <payee address> for https://api.example.com/… from @me/shopper".
 */
function describe(item: PendingApproval, opened: Opened): string {
  const amount =
    opened.state === 'open'
      ? `${opened.text} ${item.asset ?? ''}`.trim()
      : `${item.asset ?? 'USDC'} (amount locked)`;
  const x402 = x402Of(item);
  const payee = x402 ? `${x402.pay_to} for ${x402.resource}` : item.to;
  return `${amount} to ${payee} from ${item.agent}`;
}

/** The x402 facts, when it is one: who is paid and for which resource. */
function x402Facts(item: PendingApproval): HTMLElement[] {
  const x402 = x402Of(item);
  return x402
    ? [
        h('dt', {}, 'Pays to (x402)'),
        h('dd', {}, h('code', {}, x402.pay_to)),
        h('dt', {}, 'Resource'),
        h('dd', {}, h('code', {}, x402.resource)),
      ]
    : [];
}

class ApprovalsInbox {
  private readonly cards = new Map<string, Card>();
  private readonly list = h('ul', { class: 'cards', attrs: { 'aria-labelledby': 'approvals-title' } });
  private readonly summary = h(
    'p',
    { class: 'summary', attrs: { role: 'status', 'aria-live': 'polite' } },
    'Loading…',
  );
  private readonly ticker: ReturnType<typeof setInterval>;
  private readonly unsubscribe: () => void;

  constructor(private readonly context: ViewContext) {
    replaceChildren(
      context.root,
      h('h1', { id: 'approvals-title', attrs: { tabindex: -1 } }, 'Approvals'),
      h(
        'p',
        { class: 'intro' },
        'Agent payments above their approval threshold wait here. Nothing moves until you approve; a rejected payment is discarded.',
      ),
      context.amounts.unlocked
        ? null
        : h(
            'p',
            { class: 'hint' },
            'Amounts are locked: use “Unlock amounts” with your decryption key to see them.',
          ),
      this.summary,
      this.list,
    );
    this.ticker = setInterval(() => this.tick(), 1_000);
    this.unsubscribe = context.pending.subscribe((items) => void this.update(items));
    void context.pending.refresh();
  }

  dispose(): void {
    clearInterval(this.ticker);
    this.unsubscribe();
  }

  private async update(items: readonly PendingApproval[]): Promise<void> {
    await this.context.amounts.prepare();
    const present = new Set(items.map((item) => item.transaction_id));
    for (const [id, card] of this.cards) {
      // Gone before its deadline: decided elsewhere. Gone after it: the expiry sweep took it.
      if (!present.has(id) && !card.expired) {
        if (new Date(card.item.expires_at).getTime() <= Date.now()) {
          this.markExpired(card);
        } else {
          this.remove(id);
        }
      }
    }
    for (const item of items) {
      if (!this.cards.has(item.transaction_id)) {
        this.add(item);
      }
    }
    this.tick();
  }

  private add(item: PendingApproval): void {
    const opened = this.context.amounts.amount(item.encrypted_amount, item.asset ?? 'USDC');
    const headingId = `approval-${item.transaction_id}`;
    const left = h('span', { class: 'time-left' });
    const actions = h(
      'div',
      { class: 'actions' },
      button('Approve', () => void this.decide(item, 'approve', opened), {
        class: 'primary',
        attrs: { 'aria-describedby': headingId },
      }),
      button('Reject', () => void this.decide(item, 'reject', opened), {
        class: 'danger',
        attrs: { 'aria-describedby': headingId },
      }),
    );
    const element = h(
      'li',
      { class: 'card approval', attrs: { 'data-transaction-id': item.transaction_id } },
      h(
        'article',
        { attrs: { 'aria-labelledby': headingId } },
        h('h2', { id: headingId }, describe(item, opened)),
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, 'Agent'),
          h('dd', {}, item.agent),
          h('dt', {}, 'Recipient'),
          h('dd', {}, item.to),
          ...x402Facts(item),
          h('dt', {}, 'Asset'),
          h('dd', {}, item.asset ?? 'USDC'),
          h('dt', {}, 'Amount'),
          h('dd', {}, amountElement(opened, item.asset)),
          h('dt', {}, 'Requested'),
          h('dd', {}, timeElement(item.requested_at)),
          h('dt', {}, 'Time left'),
          h('dd', {}, left),
          h('dt', {}, 'Transaction'),
          h('dd', {}, idElement(item.transaction_id)),
        ),
        actions,
      ),
    );
    this.cards.set(item.transaction_id, { item, element, timeLeft: left, actions, expired: false });
    this.list.append(element);
  }

  private remove(id: string): void {
    this.cards.get(id)?.element.remove();
    this.cards.delete(id);
  }

  private markExpired(card: Card): void {
    card.expired = true;
    card.element.classList.add('expired');
    card.timeLeft.replaceChildren(
      h('strong', {}, 'Expired'),
      ' — the approval window closed; nothing was sent.',
    );
    replaceChildren(
      card.actions,
      button('Dismiss', () => this.remove(card.item.transaction_id)),
    );
  }

  private tick(): void {
    for (const card of this.cards.values()) {
      if (card.expired) {
        continue;
      }
      const left = timeLeft(card.item.expires_at);
      if (left === undefined) {
        this.markExpired(card);
      } else {
        card.timeLeft.textContent = left;
      }
    }
    const waiting = [...this.cards.values()].filter((card) => !card.expired).length;
    const text =
      waiting === 0
        ? 'Nothing is waiting for your approval.'
        : `${pluralize(waiting, 'payment')} waiting for your decision.`;
    if (this.summary.textContent !== text) {
      this.summary.textContent = text;
    }
  }

  private async decide(item: PendingApproval, action: 'approve' | 'reject', opened: Opened): Promise<void> {
    const approve = action === 'approve';
    const confirmed = await confirmAction({
      title: approve ? 'Approve this payment?' : 'Reject this payment?',
      message: approve
        ? `Send ${describe(item, opened)}. It is signed and submitted at once, under the agent's current policy.${
            this.context.session.environment === 'live' ? ' This is live: real funds move.' : ''
          }`
        : `Discard ${describe(item, opened)}. Nothing is sent.`,
      confirmLabel: approve ? 'Approve and send' : 'Reject payment',
      danger: !approve,
    });
    const card = this.cards.get(item.transaction_id);
    if (!confirmed || !card) {
      return;
    }
    for (const control of card.actions.querySelectorAll('button')) {
      control.disabled = true;
    }
    try {
      const result = approve
        ? await this.context.client.approve(item.transaction_id)
        : await this.context.client.reject(item.transaction_id);
      this.remove(item.transaction_id);
      this.focusHeading();
      if (result.status === 'failed') {
        notify(
          `Approved, but the transfer failed: ${(result as { failure_reason?: string }).failure_reason ?? 'unknown reason'}.`,
          'error',
        );
      } else if (approve) {
        // The transfer is the agent's (sender) and the recipient's: the owner cannot read it itself.
        notify(
          result.transfer_id
            ? `Approved: transfer ${result.transfer_id} was signed and submitted.`
            : 'Approved.',
        );
      } else {
        notify('Rejected: nothing was sent.');
      }
    } catch (error) {
      this.onDecisionError(card, error);
    } finally {
      void this.context.pending.refresh();
    }
  }

  private onDecisionError(card: Card, error: unknown): void {
    const code = error instanceof CtsApiError ? error.code : undefined;
    if (code === 'transaction_expired') {
      this.markExpired(card);
      notify('This payment expired before your decision: nothing was sent.', 'error');
    } else if (code === 'transaction_already_decided' || code === 'transaction_not_found') {
      this.remove(card.item.transaction_id);
      this.focusHeading();
      notify('This payment was already decided elsewhere.', 'error');
    } else {
      for (const control of card.actions.querySelectorAll('button')) {
        control.disabled = false;
      }
      this.context.fail(error);
    }
  }

  private focusHeading(): void {
    this.context.root.querySelector<HTMLElement>('h1')?.focus();
  }
}

export const approvalsView: ViewDefinition = {
  title: 'Approvals',
  render: (context) => new ApprovalsInbox(context),
};
