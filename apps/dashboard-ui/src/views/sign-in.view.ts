import { type Account } from '@cts/sdk';
import { clientFor, environmentOf } from '../app/session';
import { decryptionKeyProblem } from '../crypto/amounts';
import { field, h, replaceChildren } from '../ui/dom';
import { describeError, isUnauthorized } from '../ui/notices';

export type SignedIn = (apiKey: string, account: Account, decryptionKey: string | undefined) => Promise<void>;

function secretInput(id: string, name: string): HTMLInputElement {
  return h('input', {
    id,
    attrs: { name, type: 'password', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off' },
  });
}

/** Paste an API key (checked with `GET /v1/accounts/me`) and, optionally, the decryption key. */
export function renderSignIn(main: HTMLElement, message: string | undefined, signedIn: SignedIn): void {
  const apiKey = secretInput('sign-in-api-key', 'api_key');
  const decryptionKey = secretInput('sign-in-decryption-key', 'decryption_key');
  const apiKeyField = field(
    'API key',
    apiKey,
    'Starts with svc_test_ or svc_live_. Kept in this tab only, and sent only as the Authorization header.',
  );
  const keyField = field(
    'Decryption key (optional)',
    decryptionKey,
    'Starts with dk1_. Opens amounts in this browser; it is never sent to the service and never stored.',
  );
  const problem = h(
    'p',
    { class: 'form-error', attrs: { role: 'alert' }, hidden: message === undefined },
    message,
  );
  const submit = h('button', { class: 'primary', attrs: { type: 'submit' } }, 'Sign in');

  const showError = (text: string, control: HTMLInputElement, slot: HTMLElement) => {
    slot.textContent = text;
    slot.hidden = false;
    control.setAttribute('aria-invalid', 'true');
    control.focus();
  };
  const reset = () => {
    for (const [control, slot] of [
      [apiKey, apiKeyField.error],
      [decryptionKey, keyField.error],
    ] as const) {
      control.removeAttribute('aria-invalid');
      slot.hidden = true;
    }
    problem.hidden = true;
  };

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    reset();
    const key = apiKey.value.trim();
    const dk = decryptionKey.value.trim();
    if (environmentOf(key) === undefined) {
      showError('An API key starts with svc_test_ or svc_live_.', apiKey, apiKeyField.error);
      return;
    }
    const dkProblem = dk === '' ? undefined : decryptionKeyProblem(dk);
    if (dkProblem) {
      showError(dkProblem, decryptionKey, keyField.error);
      return;
    }
    submit.disabled = true;
    try {
      const account = await clientFor(key).me();
      apiKey.value = '';
      decryptionKey.value = '';
      await signedIn(key, account, dk === '' ? undefined : dk);
    } catch (error) {
      submit.disabled = false;
      const text = isUnauthorized(error)
        ? 'This API key was not accepted (unknown or revoked).'
        : describeError(error);
      showError(text, apiKey, apiKeyField.error);
    }
  };

  const form = h(
    'form',
    {
      class: 'sign-in',
      attrs: { novalidate: true, 'aria-labelledby': 'sign-in-title' },
      on: { submit: (e) => void onSubmit(e) },
    },
    h('h1', { id: 'sign-in-title', attrs: { tabindex: -1 } }, 'Sign in'),
    h(
      'p',
      {},
      'Use an API key of your account. Approvals, keys and webhooks are managed through the same public API your code uses.',
    ),
    problem,
    apiKeyField.wrapper,
    keyField.wrapper,
    h('div', { class: 'actions' }, submit),
  );
  replaceChildren(main, form);
  apiKey.focus();
}
