import { CtsApiError } from '@cts/sdk';
import { type ViewContext } from '../app/view';
import { field, h, replaceChildren } from '../ui/dom';
import { secretPanel } from './secret-panel';
import { eventChoices } from './webhook-event-choices';

/** `POST /v1/webhooks`: the signing secret comes back once and is shown with a copy button. */
export function webhookCreateForm(
  context: ViewContext,
  secretSlot: HTMLElement,
  created: () => void,
): HTMLFormElement {
  const url = h('input', {
    attrs: { name: 'url', type: 'url', autocomplete: 'off', placeholder: 'https://example.com/webhooks' },
  });
  const urlField = field(
    'Endpoint URL',
    url,
    'HTTPS only; the service refuses private and loopback addresses.',
  );
  const choices = eventChoices((event) => event.startsWith('transfer.'));
  const eventsError = choices.error;
  const submit = h('button', { class: 'primary', attrs: { type: 'submit' } }, 'Subscribe');
  const form = h(
    'form',
    { class: 'inline-form', attrs: { novalidate: true, 'aria-labelledby': 'create-webhook-title' } },
    h('h2', { id: 'create-webhook-title' }, 'Add a subscription'),
    urlField.wrapper,
    choices.fieldset,
    h('div', { class: 'actions' }, submit),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    urlField.error.hidden = true;
    eventsError.hidden = true;
    url.removeAttribute('aria-invalid');
    submit.disabled = true;
    const events = choices.selected();
    context.client
      .createWebhook({ url: url.value.trim(), events })
      .then((webhook) => {
        url.value = '';
        replaceChildren(
          secretSlot,
          secretPanel({
            title: `Subscribed ${webhook.url}`,
            explanation: 'This signing secret verifies deliveries. It is shown this once.',
            label: 'Signing secret',
            secret: webhook.secret,
            onDone: () => secretSlot.replaceChildren(),
          }),
        );
        created();
      })
      .catch((error: unknown) => {
        if (error instanceof CtsApiError && (error.status === 400 || error.status === 422)) {
          const slot = error.param === 'events' ? eventsError : urlField.error;
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
  return form;
}
