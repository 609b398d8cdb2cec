import { type Webhook, type WebhookDelivery } from '@cts/sdk';
import { type ViewContext, type ViewDefinition } from '../app/view';
import { confirmAction } from '../ui/dialog';
import { button, cell, h, replaceChildren, table } from '../ui/dom';
import { idElement, timeElement } from '../ui/format';
import { notify } from '../ui/notices';
import { webhookCreateForm } from './webhook-create-form';

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

/**
 * Whether it gets deliveries and, when not, why: disabled by hand, or automatically after days of
 * failed deliveries (its account also got a `webhook.endpoint.disabled` event).
 */
function stateElement(webhook: Webhook): HTMLElement {
  if (webhook.disabled) {
    const why =
      webhook.disabled_reason === 'endpoint_failing'
        ? 'Disabled automatically: every delivery failed since '
        : 'Disabled by you. ';
    return h(
      'span',
      {
        class: 'status status-failed',
        attrs: { 'data-state': `disabled-${webhook.disabled_reason ?? 'manual'}` },
      },
      why,
      webhook.disabled_reason === 'endpoint_failing' ? timeElement(webhook.failing_since) : '',
      webhook.disabled_reason === 'endpoint_failing' ? '. ' : '',
      'Deliveries wait until it is enabled (those older than 24 hours fail; replay them).',
    );
  }
  if (webhook.failing_since) {
    return h(
      'span',
      { class: 'status status-pending', attrs: { 'data-state': 'failing' } },
      'Active, but every delivery failed since ',
      timeElement(webhook.failing_since),
      ': it is disabled after 5 days of that.',
    );
  }
  return h('span', { class: 'status status-succeeded', attrs: { 'data-state': 'active' } }, 'Active');
}

/** One subscription: its URL and events, its delivery log (loaded when opened), replay, delete. */
function subscriptionCard(context: ViewContext, webhook: Webhook, reload: () => void): HTMLElement {
  const log = h('div', { class: 'delivery-log', attrs: { 'aria-live': 'polite' } });
  const loadLog = async () => {
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
            void loadLog();
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
      await loadLog();
    } catch (error) {
      context.fail(error);
    }
  };
  const remove = async () => {
    const confirmed = await confirmAction({
      title: 'Delete this subscription?',
      message: `${webhook.url} gets no more deliveries, retries included. Its delivery log goes with it.`,
      confirmLabel: 'Delete subscription',
      danger: true,
    });
    if (!confirmed) {
      return;
    }
    try {
      await context.client.deleteWebhook(webhook.webhook_id);
      notify(`Subscription to ${webhook.url} deleted.`);
      reload();
    } catch (error) {
      context.fail(error);
    }
  };
  const setDisabled = async (disabled: boolean) => {
    try {
      await context.client.updateWebhook(webhook.webhook_id, { disabled });
      notify(`Subscription to ${webhook.url} ${disabled ? 'disabled' : 'enabled'}.`);
      reload();
    } catch (error) {
      context.fail(error);
    }
  };
  const sendTest = async () => {
    try {
      const sent = await context.client.testWebhook(webhook.webhook_id);
      notify(`Test event sent to ${webhook.url} as delivery ${sent.delivery_id}.`);
      if (details.open) {
        await loadLog();
      }
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
      button('Refresh log', () => void loadLog()),
    ),
    log,
  );
  details.addEventListener('toggle', () => {
    if (details.open) {
      replaceChildren(log, h('p', {}, 'Loading deliveries…'));
      void loadLog();
    }
  });
  const titleId = `webhook-${webhook.webhook_id}`;
  return h(
    'li',
    { class: 'card', attrs: { 'data-webhook-id': webhook.webhook_id } },
    h(
      'article',
      { attrs: { 'aria-labelledby': titleId } },
      h('h2', { id: titleId, class: 'url' }, webhook.url),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'State'),
        h('dd', {}, stateElement(webhook)),
        h('dt', {}, 'Events'),
        h('dd', {}, webhook.events.join(', ')),
        h('dt', {}, 'Created'),
        h('dd', {}, timeElement(webhook.created_at)),
        h('dt', {}, 'Subscription'),
        h('dd', {}, idElement(webhook.webhook_id)),
      ),
      details,
      h(
        'div',
        { class: 'actions' },
        button(webhook.disabled ? 'Enable' : 'Disable', () => void setDisabled(!webhook.disabled), {
          attrs: { 'aria-describedby': titleId },
        }),
        button('Send test event', () => void sendTest(), { attrs: { 'aria-describedby': titleId } }),
        button('Delete subscription', () => void remove(), {
          class: 'danger',
          attrs: { 'aria-describedby': titleId },
        }),
      ),
    ),
  );
}

async function render(context: ViewContext): Promise<void> {
  const list = h('div', {}, h('p', {}, 'Loading subscriptions…'));
  const secretSlot = h('div');
  const load = async () => {
    try {
      const { webhooks } = await context.client.webhooks();
      replaceChildren(
        list,
        webhooks.length === 0
          ? h('p', {}, 'No subscriptions yet.')
          : h(
              'ul',
              { class: 'cards', attrs: { 'aria-label': 'Subscriptions' } },
              webhooks.map((webhook) => subscriptionCard(context, webhook, () => void load())),
            ),
      );
    } catch (error) {
      replaceChildren(list, h('p', {}, 'The subscriptions could not be loaded.'));
      context.fail(error);
    }
  };
  replaceChildren(
    context.root,
    h('h1', { attrs: { tabindex: -1 } }, 'Webhooks'),
    h(
      'p',
      { class: 'intro' },
      'Signed HTTPS deliveries of transfer and agent events. A delivery without a 2xx answer is retried for 24 hours; replay sends a stored event again.',
    ),
    secretSlot,
    list,
    webhookCreateForm(context, secretSlot, () => void load()),
  );
  await load();
}

export const webhooksView: ViewDefinition = {
  title: 'Webhooks',
  render(context) {
    void render(context);
  },
};
