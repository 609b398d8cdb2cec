import { CtsApiError, type PendingApproval } from '@cts/sdk';
import { type ViewContext, type ViewDefinition } from '../app/view';
import { type Opened } from '../crypto/amounts';
import { amountElement } from '../ui/amount';
import { approvedNotice, approveMessage, describeApproval, inboxSummary } from './approval-text';
import { confirmAction } from '../ui/dialog';
import { button, h, replaceChildren } from '../ui/dom';
import { idElement, timeElement, timeLeft } from '../ui/format';
import { notify } from '../ui/notices';

interface Card {
  item: PendingApproval;
  element: HTMLLIElement;
  timeLeft: HTMLElement;
  actions: HTMLElement;
  expired: boolean;
}

/** The x402 facts, when it is one: who is paid and for which resource. */
function x402Facts(item: PendingApproval): HTMLElement[] {
  const x402 = item.x402;
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
        h('h2', { id: headingId }, describeApproval(item, opened)),
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
    const feed = this.context.pending;
    const text = inboxSummary(feed.status, feed.current !== undefined, waiting);
    if (this.summary.textContent !== text) {
      this.summary.textContent = text;
    }
  }

  private async decide(item: PendingApproval, action: 'approve' | 'reject', opened: Opened): Promise<void> {
    const approve = action === 'approve';
    const confirmed = await confirmAction({
      title: approve ? 'Approve this payment?' : 'Reject this payment?',
      message: approve
        ? approveMessage(item, opened, this.context.session.environment)
        : `Discard ${describeApproval(item, opened)}. Nothing is sent.`,
      confirmLabel: approve ? (item.x402 ? 'Approve' : 'Approve and send') : 'Reject payment',
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
        notify(approvedNotice(item, opened, result));
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
