import { type ListTransfersQuery, type Transfer, type TransferStatus } from '@cts/sdk';
import { type ViewContext, type ViewDefinition } from '../app/view';
import { amountElement } from '../ui/amount';
import { button, cell, field, h, replaceChildren, table } from '../ui/dom';
import { idElement, startOfNextUtcDay, startOfUtcDay, timeElement } from '../ui/format';

const PAGE_SIZE = 20;
const STATUSES: readonly TransferStatus[] = ['pending', 'confirmed', 'failed'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Filters {
  status?: TransferStatus;
  from?: string;
  to?: string;
  offset: number;
}

function readFilters(query: URLSearchParams): Filters {
  const status = query.get('status') as TransferStatus | null;
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const offset = Number(query.get('offset') ?? 0);
  return {
    status: status && STATUSES.includes(status) ? status : undefined,
    from: DATE.test(from) ? from : undefined,
    to: DATE.test(to) ? to : undefined,
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}

function hashFor(filters: Filters): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined && value !== 0 && value !== '') {
      query.set(name, String(value));
    }
  }
  const text = query.toString();
  return `#/transfers${text ? `?${text}` : ''}`;
}

function filterForm(context: ViewContext, filters: Filters): HTMLFormElement {
  const status = h(
    'select',
    { attrs: { name: 'status' } },
    h('option', { attrs: { value: '' } }, 'Any status'),
    STATUSES.map((s) => h('option', { attrs: { value: s, selected: filters.status === s } }, s)),
  );
  const from = h('input', { attrs: { type: 'date', name: 'from' }, value: filters.from ?? '' });
  const to = h('input', { attrs: { type: 'date', name: 'to' }, value: filters.to ?? '' });
  const form = h(
    'form',
    { class: 'filters', attrs: { 'aria-label': 'Filter transfers', novalidate: true } },
    field('Status', status).wrapper,
    field('From (UTC day)', from).wrapper,
    field('To (UTC day, included)', to).wrapper,
    h(
      'div',
      { class: 'actions' },
      h('button', { attrs: { type: 'submit' } }, 'Apply filters'),
      button('Clear', () => context.navigate('#/transfers')),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    context.navigate(
      hashFor({
        status: (status.value || undefined) as TransferStatus | undefined,
        from: from.value || undefined,
        to: to.value || undefined,
        offset: 0,
      }),
    );
  });
  return form;
}

function transferRow(context: ViewContext, transfer: Transfer): HTMLTableRowElement {
  const sent = transfer.direction !== 'received';
  const counterparty = sent ? transfer.to : (transfer.from ?? '—');
  const memo = transfer.encrypted_memo ? amountElement(context.amounts.memo(transfer.encrypted_memo)) : '—';
  return h(
    'tr',
    { attrs: { 'data-transfer-id': transfer.transfer_id } },
    cell('Created', timeElement(transfer.created_at)),
    cell('Direction', sent ? 'Sent' : 'Received'),
    cell('Counterparty', counterparty),
    cell(
      'Amount',
      amountElement(context.amounts.amount(transfer.encrypted_amount, transfer.asset), transfer.asset),
    ),
    cell(
      'Status',
      h('span', { class: `status status-${transfer.status}` }, transfer.status),
      transfer.failure_reason ? ` (${transfer.failure_reason})` : '',
    ),
    cell('Memo', memo),
    cell('Transfer', idElement(transfer.transfer_id)),
  );
}

async function render(context: ViewContext): Promise<void> {
  const filters = readFilters(context.query);
  const results = h(
    'div',
    { class: 'results', attrs: { 'aria-live': 'polite', 'aria-busy': 'true' } },
    h('p', {}, 'Loading transfers…'),
  );
  replaceChildren(
    context.root,
    h('h1', { attrs: { tabindex: -1 } }, 'Transfers'),
    filterForm(context, filters),
    context.amounts.unlocked
      ? null
      : h(
          'p',
          { class: 'hint' },
          'Amounts are locked: use “Unlock amounts” with your decryption key to see them.',
        ),
    results,
  );
  const query: ListTransfersQuery = {
    limit: PAGE_SIZE,
    offset: filters.offset,
    status: filters.status,
    from: filters.from ? startOfUtcDay(filters.from) : undefined,
    to: filters.to ? startOfNextUtcDay(filters.to) : undefined,
  };
  try {
    const [page] = await Promise.all([context.client.transfers(query), context.amounts.prepare()]);
    results.setAttribute('aria-busy', 'false');
    if (page.transfers.length === 0) {
      replaceChildren(results, h('p', {}, filters.offset > 0 ? 'No more transfers.' : 'No transfers match.'));
    } else {
      const first = filters.offset + 1;
      const last = filters.offset + page.transfers.length;
      const { table: element, body } = table(`Transfers ${first}–${last}, newest first`, [
        'Created',
        'Direction',
        'Counterparty',
        'Amount',
        'Status',
        'Memo',
        'Transfer',
      ]);
      body.append(...page.transfers.map((transfer) => transferRow(context, transfer)));
      replaceChildren(results, element);
    }
    const previous = button(
      'Previous page',
      () => context.navigate(hashFor({ ...filters, offset: Math.max(0, filters.offset - PAGE_SIZE) })),
      { disabled: filters.offset === 0 },
    );
    const next = button(
      'Next page',
      () => context.navigate(hashFor({ ...filters, offset: filters.offset + PAGE_SIZE })),
      { disabled: !page.has_more },
    );
    results.append(
      h('nav', { class: 'pagination', attrs: { 'aria-label': 'Pages of transfers' } }, previous, next),
    );
  } catch (error) {
    replaceChildren(results, h('p', {}, 'The transfers could not be loaded.'));
    results.setAttribute('aria-busy', 'false');
    context.fail(error);
  }
}

export const transfersView: ViewDefinition = {
  title: 'Transfers',
  render(context) {
    void render(context);
  },
};
