import { type Webhook } from '@cts/sdk';
import { type ViewContext } from '../app/view';
import { confirmAction } from '../ui/dialog';
import { button, h } from '../ui/dom';
import { idElement, timeElement } from '../ui/format';
import { notify } from '../ui/notices';
import { secretPanel } from './secret-panel';
import { deliveryLog } from './webhook-delivery-log';
import { webhookEditForm } from './webhook-edit-form';

export interface CardActions {
  /** Loads the subscriptions again (after a change to one). */
  reload(): void;
  /** Shows a secret the API returned once, above the list. */
  showSecret(panel: HTMLElement | null): void;
}

/**
 * Whether it gets deliveries and, when not, why: disabled by hand, or automatically after days of
 * failed deliveries (its account also got a `webhook.endpoint.disabled` event).
 */
function stateElement(webhook: Webhook): HTMLElement {
  if (webhook.disabled) {
    const automatic = webhook.disabled_reason === 'endpoint_failing';
    return h(
      'span',
      {
        class: 'status status-failed',
        attrs: { 'data-state': `disabled-${webhook.disabled_reason ?? 'manual'}` },
      },
      automatic ? 'Disabled automatically ' : 'Disabled by you ',
      timeElement(webhook.disabled_at, ''),
      automatic ? ': every delivery failed since ' : '. ',
      automatic ? timeElement(webhook.failing_since) : '',
      automatic ? '. ' : '',
      'Deliveries wait until it is enabled (those older than 24 hours fail; replay them).',
    );
  }
  if (webhook.failing_since) {
    return h(
      'span',
      { class: 'status status-pending', attrs: { 'data-state': 'failing' } },
      'Active, but every delivery failed since ',
      timeElement(webhook.failing_since),
      ': it is disabled automatically if that goes on.',
    );
  }
  return h('span', { class: 'status status-succeeded', attrs: { 'data-state': 'active' } }, 'Active');
}

/** Facts about the signing secret: during a rotation the previous one still signs, until when. */
function secretFacts(webhook: Webhook): HTMLElement[] {
  const until = webhook.previous_secret_expires_at;
  if (!until || new Date(until).getTime() <= Date.now()) {
    return [];
  }
  return [
    h('dt', {}, 'Previous secret'),
    h('dd', { attrs: { 'data-previous-secret': true } }, 'Still signs deliveries until ', timeElement(until)),
  ];
}

/** One subscription: state, events, log; enable/disable, test, rotate the secret, edit, delete. */
export function subscriptionCard(context: ViewContext, webhook: Webhook, actions: CardActions): HTMLElement {
  const log = deliveryLog(context, webhook);
  const run = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      context.fail(error);
    }
  };
  const setDisabled = (disabled: boolean) =>
    run(async () => {
      await context.client.updateWebhook(webhook.webhook_id, { disabled });
      notify(`Subscription to ${webhook.url} ${disabled ? 'disabled' : 'enabled'}.`);
      actions.reload();
    });
  const sendTest = () =>
    run(async () => {
      const sent = await context.client.testWebhook(webhook.webhook_id);
      const answer = sent.response_status_code === null ? '' : `, HTTP ${sent.response_status_code}`;
      notify(`Test event sent to ${webhook.url} as delivery ${sent.delivery_id} (${sent.status}${answer}).`);
      await log.refresh();
    });
  const rotate = () =>
    run(async () => {
      const confirmed = await confirmAction({
        title: 'Rotate the signing secret?',
        message:
          'A new secret is shown once. For 24 hours deliveries carry signatures by both the new and the current secret, so your receiver can switch over; then by the new one only.',
        confirmLabel: 'Rotate secret',
      });
      if (!confirmed) {
        return;
      }
      const rotated = await context.client.rotateWebhookSecret(webhook.webhook_id);
      actions.showSecret(
        secretPanel({
          title: `New signing secret for ${rotated.url}`,
          explanation:
            'It is shown this once. Until the previous secret expires, deliveries are signed with both.',
          label: 'Signing secret',
          secret: rotated.secret,
          onDone: () => actions.showSecret(null),
        }),
      );
      actions.reload();
    });
  const remove = () =>
    run(async () => {
      const confirmed = await confirmAction({
        title: 'Delete this subscription?',
        message: `${webhook.url} gets no more deliveries, retries included. Its delivery log goes with it.`,
        confirmLabel: 'Delete subscription',
        danger: true,
      });
      if (!confirmed) {
        return;
      }
      await context.client.deleteWebhook(webhook.webhook_id);
      notify(`Subscription to ${webhook.url} deleted.`);
      actions.reload();
    });
  const titleId = `webhook-${webhook.webhook_id}`;
  const describedBy = { attrs: { 'aria-describedby': titleId } };
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
        h('dd', { attrs: { 'data-events': true } }, webhook.events.join(', ')),
        h('dt', {}, 'Created'),
        h('dd', {}, timeElement(webhook.created_at)),
        ...secretFacts(webhook),
        h('dt', {}, 'Subscription'),
        h('dd', {}, idElement(webhook.webhook_id)),
      ),
      log.element,
      webhookEditForm(context, webhook, () => actions.reload()),
      h(
        'div',
        { class: 'actions' },
        button(
          webhook.disabled ? 'Enable' : 'Disable',
          () => void setDisabled(!webhook.disabled),
          describedBy,
        ),
        button('Send test event', () => void sendTest(), describedBy),
        button('Rotate signing secret', () => void rotate(), describedBy),
        button('Delete subscription', () => void remove(), { class: 'danger', ...describedBy }),
      ),
    ),
  );
}
