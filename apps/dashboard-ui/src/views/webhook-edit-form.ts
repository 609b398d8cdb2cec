import { CtsApiError, type UpdateWebhookInput, type Webhook } from '@cts/sdk';
import { type ViewContext } from '../app/view';
import { field, h } from '../ui/dom';
import { notify } from '../ui/notices';
import { eventChoices } from './webhook-event-choices';

/** `PATCH /v1/webhooks/{id}` with what changed: the URL (checked as on create) and the event types. */
export function webhookEditForm(context: ViewContext, webhook: Webhook, saved: () => void): HTMLElement {
  const url = h('input', { attrs: { name: 'url', type: 'url', autocomplete: 'off' }, value: webhook.url });
  const urlField = field('Endpoint URL', url, 'HTTPS only, checked as when subscribing.');
  const choices = eventChoices((event) => webhook.events.includes(event));
  const submit = h('button', { class: 'primary', attrs: { type: 'submit' } }, 'Save changes');
  const form = h(
    'form',
    { class: 'inline-form', attrs: { novalidate: true, 'aria-label': `Edit ${webhook.url}` } },
    urlField.wrapper,
    choices.fieldset,
    h('div', { class: 'actions' }, submit),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    urlField.error.hidden = true;
    choices.error.hidden = true;
    url.removeAttribute('aria-invalid');
    const change: UpdateWebhookInput = {};
    if (url.value.trim() !== webhook.url) {
      change.url = url.value.trim();
    }
    const events = choices.selected();
    if (events.length !== webhook.events.length || events.some((e) => !webhook.events.includes(e))) {
      change.events = events;
    }
    if (Object.keys(change).length === 0) {
      notify('Nothing changed.');
      return;
    }
    submit.disabled = true;
    context.client
      .updateWebhook(webhook.webhook_id, change)
      .then((updated) => {
        notify(`Subscription to ${updated.url} saved: ${Object.keys(change).join(' and ')} changed.`);
        saved();
      })
      .catch((error: unknown) => {
        if (error instanceof CtsApiError && (error.status === 400 || error.status === 422)) {
          const slot = error.param === 'events' ? choices.error : urlField.error;
          slot.textContent = error.message;
          slot.hidden = false;
          if (slot === urlField.error) {
            url.setAttribute('aria-invalid', 'true');
            url.focus();
          }
        } else {
          context.fail(error);
        }
      })
      .finally(() => {
        submit.disabled = false;
      });
  });
  return h('details', { class: 'log-toggle' }, h('summary', {}, 'Edit URL and events'), form);
}
