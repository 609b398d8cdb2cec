import { type Webhook, type WebhookDelivery } from '@cts/sdk';
import { type ViewContext } from '../app/view';
import { button, cell, h, replaceChildren, table } from '../ui/dom';
import { idElement, timeElement } from '../ui/format';
import { notify } from '../ui/notices';

const REFRESH_PENDING_MS = 2_000;

function responseElement(delivery: WebhookDelivery): HTMLElement | string {
  const code = delivery.response_status_code;
  if (code !== null) {
    return h('span', { class: code >= 200 && code < 300 ? 'ok' : 'rejected' }, String(code));
  }
  // No status code: either not tried yet, or tried and nothing answered (refused, timed out).
  return (delivery.attempt_count ?? 0) === 0 ? 'not sent yet' : 'no answer';
}

function deliveryRow(
  delivery: WebhookDelivery,
  replay: (delivery: WebhookDelivery) => void,
): HTMLTableRowElement {
  return h(
    'tr',
    { attrs: { 'data-delivery-id': delivery.delivery_id, 'data-event-id': delivery.event_id ?? '' } },
    cell('Event', delivery.event ?? '—'),
    cell(
      'Status',
      h('span', { class: `status status-${delivery.status ?? 'unknown'}` }, delivery.status ?? '—'),
    ),
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
  const load = async (): Promise<void> => {
    try {
      const { deliveries } = await context.client.deliveries(webhook.webhook_id);
      if (deliveries.length === 0) {
        replaceChildren(log, h('p', {}, 'No deliveries yet.'));
        return;
      }
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
      body.append(...deliveries.map((delivery) => deliveryRow(delivery, (d) => void replay(d))));
      replaceChildren(log, element);
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
