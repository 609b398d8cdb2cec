import { type Webhook, type WebhookDelivery } from '@cts/sdk';
import { type ViewContext } from '../app/view';
import { button, cell, h, replaceChildren, table } from '../ui/dom';
import { idElement, timeElement } from '../ui/format';
import { notify } from '../ui/notices';
import { deliveryResponse, failureText } from './webhook-delivery-text';

const REFRESH_PENDING_MS = 2_000;
const PAGE_SIZE = 20;
/** The API's largest page: a refresh reloads at most this many of the rows already shown. */
const MAX_PAGE = 100;

function responseElement(delivery: WebhookDelivery): HTMLElement | string {
  const { text, tone } = deliveryResponse(delivery);
  return tone ? h('span', { class: tone }, text) : text;
}

function statusElement(delivery: WebhookDelivery): HTMLElement {
  const status = h(
    'span',
    { class: `status status-${delivery.status ?? 'unknown'}` },
    delivery.status ?? '—',
  );
  const why = failureText(delivery);
  return why ? h('span', {}, status, h('span', { class: 'failure-reason' }, ` — ${why}`)) : status;
}

function deliveryRow(
  delivery: WebhookDelivery,
  replay: (delivery: WebhookDelivery) => void,
): HTMLTableRowElement {
  return h(
    'tr',
    { attrs: { 'data-delivery-id': delivery.delivery_id, 'data-event-id': delivery.event_id ?? '' } },
    cell('Event', delivery.event ?? '—'),
    cell('Status', statusElement(delivery)),
    cell('Response', responseElement(delivery)),
    cell('Attempts', String(delivery.attempt_count ?? '—')),
    cell('Retries', String(delivery.retry_count)),
    cell('Last attempt', timeElement(delivery.last_attempt_at)),
    cell('Next attempt', timeElement(delivery.next_attempt_at, delivery.status === 'pending' ? 'now' : '—')),
    cell('Event id', delivery.event_id ? idElement(delivery.event_id) : '—'),
    cell(
      'Actions',
      delivery.event_id
        ? button('Replay', () => replay(delivery), {
            attrs: { 'aria-label': `Replay ${delivery.event ?? 'event'} ${delivery.event_id}` },
          })
        : '',
    ),
  );
}

export interface DeliveryLog {
  element: HTMLDetailsElement;
  /** Loads the log again if it is open (after a test event or a replay). */
  refresh(): Promise<void>;
}

/** A subscription's delivery log, loaded when opened, with a replay button per event. */
export function deliveryLog(context: ViewContext, webhook: Webhook): DeliveryLog {
  const log = h('div', { class: 'delivery-log', attrs: { 'aria-live': 'polite' } });
  const { table: element, body } = table(`Deliveries to ${webhook.url}, newest first`, [
    'Event',
    'Status',
    'Response',
    'Attempts',
    'Retries',
    'Last attempt',
    'Next attempt',
    'Event id',
    'Actions',
  ]);
  const more = button('Load older deliveries', () => void loadOlder());
  const pagination = h('nav', { class: 'pagination', attrs: { 'aria-label': 'More deliveries' } }, more);
  const rows = (deliveries: WebhookDelivery[]) =>
    deliveries.map((delivery) => deliveryRow(delivery, (d) => void replay(d)));
  /** The newest deliveries again (as many as are shown, within one page of the API), on open or refresh. */
  const load = async (): Promise<void> => {
    const limit = Math.min(MAX_PAGE, Math.max(PAGE_SIZE, body.rows.length));
    try {
      const { deliveries, has_more: hasMore } = await context.client.deliveries(webhook.webhook_id, {
        limit,
      });
      if (deliveries.length === 0) {
        replaceChildren(log, h('p', {}, 'No deliveries yet.'));
        return;
      }
      replaceChildren(body, rows(deliveries));
      more.disabled = false;
      replaceChildren(log, element, hasMore ? pagination : null);
      // A delivery about to be attempted (a replay, a retry due now): look again shortly, for as long
      // as the log is on screen.
      const soon = Date.now() + 60_000;
      if (
        deliveries.some((d) => d.status === 'pending' && new Date(d.next_attempt_at ?? 0).getTime() < soon)
      ) {
        setTimeout(() => {
          if (log.isConnected && details.open) {
            void load();
          }
        }, REFRESH_PENDING_MS);
      }
    } catch (error) {
      replaceChildren(log, h('p', {}, 'The delivery log could not be loaded.'));
      context.fail(error);
    }
  };
  /** The next page after the rows shown (`offset`), like the Events screen's "Load older events". */
  const loadOlder = async (): Promise<void> => {
    more.disabled = true;
    try {
      const { deliveries, has_more: hasMore } = await context.client.deliveries(webhook.webhook_id, {
        limit: PAGE_SIZE,
        offset: body.rows.length,
      });
      // Offsets count from the newest: a delivery made meanwhile shifts the page by one. Skip repeats.
      const shown = new Set([...body.rows].map((row) => row.dataset.deliveryId));
      body.append(...rows(deliveries.filter((d) => !shown.has(d.delivery_id))));
      if (!hasMore) {
        pagination.remove(); // Not `hidden`: the stylesheet's display: flex would override it.
      }
    } catch (error) {
      context.fail(error);
    } finally {
      more.disabled = false;
    }
  };
  const replay = async (delivery: WebhookDelivery) => {
    try {
      const replayed = await context.client.replay(webhook.webhook_id, delivery.event_id ?? '');
      const answer =
        replayed.response_status_code === null
          ? replayed.status
          : `${replayed.status}, HTTP ${replayed.response_status_code}`;
      notify(
        `Replayed ${delivery.event ?? 'the event'} as delivery ${replayed.delivery_id} (${answer ?? 'queued'}).`,
      );
      await load();
    } catch (error) {
      context.fail(error);
    }
  };
  const details = h(
    'details',
    { class: 'log-toggle' },
    h('summary', {}, 'Delivery log'),
    h(
      'div',
      { class: 'actions' },
      button('Refresh log', () => void load()),
    ),
    log,
  );
  details.addEventListener('toggle', () => {
    if (details.open) {
      replaceChildren(log, h('p', {}, 'Loading deliveries…'));
      void load();
    }
  });
  return {
    element: details,
    refresh: async () => {
      if (details.open) {
        await load();
      }
    },
  };
}
