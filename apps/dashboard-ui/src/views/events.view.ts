import { type CtsEvent, type ListEventsQuery, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '@cts/sdk';
import { type ViewContext, type ViewDefinition } from '../app/view';
import { button, cell, field, h, replaceChildren, table } from '../ui/dom';
import { idElement, timeElement } from '../ui/format';

const PAGE_SIZE = 20;
const TYPES: readonly string[] = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT];
/** The id an event is about, in the order a reader looks for it. */
const SUBJECT_FIELDS = ['transfer_id', 'transaction_id', 'webhook_id', 'policy_id', 'agent_id', 'account_id'];

function hashFor(type: string | undefined): string {
  return type ? `#/events?type=${encodeURIComponent(type)}` : '#/events';
}

function filterForm(context: ViewContext, type: string | undefined): HTMLFormElement {
  const select = h(
    'select',
    { attrs: { name: 'type' } },
    h('option', { attrs: { value: '' } }, 'Any type'),
    TYPES.map((t) => h('option', { attrs: { value: t, selected: type === t } }, t)),
  );
  const form = h(
    'form',
    { class: 'filters', attrs: { 'aria-label': 'Filter events', novalidate: true } },
    field('Type', select).wrapper,
    h(
      'div',
      { class: 'actions' },
      h('button', { attrs: { type: 'submit' } }, 'Apply filters'),
      button('Clear', () => context.navigate('#/events')),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    context.navigate(hashFor(select.value || undefined));
  });
  return form;
}

function subject(event: CtsEvent): HTMLElement | string {
  const fields = event as unknown as Record<string, unknown>;
  const name = SUBJECT_FIELDS.find((key) => typeof fields[key] === 'string');
  return name ? h('span', {}, `${name} `, idElement(fields[name] as string)) : '—';
}

function eventRow(event: CtsEvent): HTMLTableRowElement {
  // The payload as its webhook deliveries carry it (no plaintext amounts), for copying into a handler.
  const { created_at: _createdAt, ...payload } = event;
  return h(
    'tr',
    { attrs: { 'data-event-id': event.event_id } },
    cell('Created', timeElement(event.created_at)),
    cell('Event', event.event),
    cell('About', subject(event)),
    cell('Event id', idElement(event.event_id)),
    cell(
      'Payload',
      h(
        'details',
        { class: 'log-toggle' },
        h('summary', {}, 'Payload'),
        h('pre', { class: 'payload' }, JSON.stringify(payload, null, 2)),
      ),
    ),
  );
}

async function render(context: ViewContext): Promise<void> {
  const requested = context.query.get('type') ?? '';
  const type = TYPES.includes(requested) ? requested : undefined;
  const results = h(
    'div',
    { class: 'results', attrs: { 'aria-live': 'polite', 'aria-busy': 'true' } },
    h('p', {}, 'Loading events…'),
  );
  replaceChildren(
    context.root,
    h('h1', { attrs: { tabindex: -1 } }, 'Events'),
    h(
      'p',
      { class: 'intro' },
      'What happened on this account in the last 30 days, newest first: each event exactly as its webhook deliveries carry it. A receiver that was down can catch up from here (or from GET /v1/events).',
    ),
    filterForm(context, type),
    results,
  );
  const { table: element, body } = table('Events, newest first', [
    'Created',
    'Event',
    'About',
    'Event id',
    'Payload',
  ]);
  const more = button(
    'Load older events',
    () => void load(body.lastElementChild?.getAttribute('data-event-id')),
  );
  const load = async (startingAfter?: string | null): Promise<void> => {
    const query: ListEventsQuery = { limit: PAGE_SIZE, types: type ? [type] : undefined };
    if (startingAfter) {
      query.startingAfter = startingAfter;
    }
    more.disabled = true;
    try {
      const page = await context.client.events(query);
      results.setAttribute('aria-busy', 'false');
      if (!startingAfter && page.events.length === 0) {
        replaceChildren(results, h('p', {}, type ? 'No events of this type.' : 'No events yet.'));
        return;
      }
      body.append(...page.events.map(eventRow));
      more.disabled = false;
      replaceChildren(
        results,
        element,
        page.has_more
          ? h('nav', { class: 'pagination', attrs: { 'aria-label': 'More events' } }, more)
          : null,
      );
    } catch (error) {
      results.setAttribute('aria-busy', 'false');
      if (!startingAfter) {
        replaceChildren(results, h('p', {}, 'The events could not be loaded.'));
      }
      more.disabled = false;
      context.fail(error);
    }
  };
  await load();
}

export const eventsView: ViewDefinition = {
  title: 'Events',
  render(context) {
    void render(context);
  },
};
