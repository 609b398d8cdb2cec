import { CtsApiError, type SpendPolicy, type SpendPolicyPatch } from '@cts/sdk';
import { type ViewContext } from '../app/view';
import { field, h } from '../ui/dom';
import { notify } from '../ui/notices';

type PolicyField = keyof SpendPolicyPatch;

interface Control {
  name: PolicyField;
  element: HTMLInputElement | HTMLTextAreaElement;
  error: HTMLParagraphElement;
  /** The value to send: numbers as JSON numbers when they look like numbers, anything else as typed,
   * so the API (not the page) judges it and its message is the one shown. */
  read(): unknown;
  original: unknown;
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const asNumber = (text: string): unknown => (NUMBER.test(text.trim()) ? Number(text.trim()) : text.trim());
const orNull = (text: string, read: (t: string) => unknown): unknown =>
  text.trim() === '' ? null : read(text);
const lines = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
const ASSETS = ['USDC', 'SOL'] as const;

function textControl(
  name: PolicyField,
  label: string,
  value: string,
  read: (text: string) => unknown,
  hint?: string,
): Control & { wrapper: HTMLElement } {
  const element = h('input', {
    attrs: {
      name,
      type: 'text',
      inputmode: name === 'timezone' || name === 'active_hours' ? undefined : 'decimal',
      autocomplete: 'off',
    },
    value,
  });
  const { wrapper, error } = field(label, element, hint);
  return { name, element, error, wrapper, read: () => read(element.value), original: read(value) };
}

/**
 * Edits a policy with `PATCH /v1/agents/{id}/spend-policy`, sending only the fields that changed.
 * There is no validation of its own: the API's `invalid_policy` message is shown at the field it names.
 */
export function policyForm(
  context: ViewContext,
  accountId: string,
  policy: SpendPolicy,
  saved: (policy: SpendPolicy) => void,
): HTMLFormElement {
  const controls: Control[] = [];
  const add = (control: Control & { wrapper: HTMLElement }) => {
    controls.push(control);
    return control.wrapper;
  };
  const recipients = h('textarea', {
    attrs: { name: 'allowed_recipients', rows: 3, spellcheck: 'false' },
    value: (policy.allowed_recipients ?? []).join('\n'),
  });
  const recipientsField = field(
    'Allowed recipients',
    recipients,
    'One per line: @handle, example.com, *.example.com, or * for anyone. An empty list allows nobody.',
  );
  controls.push({
    name: 'allowed_recipients',
    element: recipients,
    error: recipientsField.error,
    read: () => lines(recipients.value),
    original: policy.allowed_recipients ?? [],
  });

  const assetBoxes = ASSETS.map((asset) =>
    h('input', {
      attrs: { type: 'checkbox', name: 'assets', value: asset },
      checked: (policy.assets ?? []).includes(asset),
      id: `asset-${asset}`,
    }),
  );
  const assetsError = h('p', { class: 'field-error', id: 'assets-error', hidden: true });
  const assetsField = h(
    'fieldset',
    { class: 'field', attrs: { 'aria-describedby': 'assets-error' } },
    h('legend', {}, 'Assets the agent may send'),
    assetBoxes.map((box) => h('label', { class: 'checkbox' }, box, ` ${box.value}`)),
    assetsError,
  );
  controls.push({
    name: 'assets',
    element: assetBoxes[0],
    error: assetsError,
    read: () =>
      assetBoxes
        .filter((box) => box.checked)
        .map((box) => box.value)
        .sort(),
    original: [...(policy.assets ?? [])].sort(),
  });

  const formError = h('div', { class: 'form-error', attrs: { role: 'alert' }, hidden: true });
  const submit = h('button', { class: 'primary', attrs: { type: 'submit' } }, 'Save policy');
  const form = h(
    'form',
    { class: 'policy-form', attrs: { novalidate: true } },
    formError,
    add(textControl('daily_limit_usdc', 'Daily limit (USDC)', String(policy.daily_limit_usdc), asNumber)),
    add(
      textControl(
        'per_transaction_limit_usdc',
        'Per-transaction limit (USDC)',
        String(policy.per_transaction_limit_usdc),
        asNumber,
      ),
    ),
    add(
      textControl(
        'hitl_threshold_usdc',
        'Ask for approval above (USDC)',
        policy.hitl_threshold_usdc === undefined || policy.hitl_threshold_usdc === null
          ? ''
          : String(policy.hitl_threshold_usdc),
        (t) => orNull(t, asNumber),
        'Empty: no payment waits for approval.',
      ),
    ),
    add(
      textControl(
        'approval_window_minutes',
        'Approval window (minutes)',
        String(policy.approval_window_minutes ?? 60),
        asNumber,
        'How long a held payment waits for a decision before it expires.',
      ),
    ),
    recipientsField.wrapper,
    assetsField,
    add(
      textControl(
        'active_hours',
        'Active hours',
        policy.active_hours ?? '',
        (t) => orNull(t, (x) => x.trim()),
        'HH:MM-HH:MM, may wrap midnight. Empty: always active.',
      ),
    ),
    add(
      textControl(
        'timezone',
        'Time zone of the active hours',
        policy.timezone ?? 'UTC',
        (t) => t.trim(),
        'An IANA name such as UTC or Europe/Paris.',
      ),
    ),
    h('div', { class: 'actions' }, submit),
  );

  const clearErrors = () => {
    formError.hidden = true;
    for (const control of controls) {
      control.error.hidden = true;
      control.element.removeAttribute('aria-invalid');
    }
  };

  const showError = (error: CtsApiError) => {
    formError.replaceChildren(h('p', {}, `The policy was not saved: ${error.message}`));
    formError.hidden = false;
    const control = controls.find((c) => c.name === error.param);
    if (control) {
      control.error.textContent = error.message;
      control.error.hidden = false;
      control.element.setAttribute('aria-invalid', 'true');
      control.element.focus();
    } else {
      formError.setAttribute('tabindex', '-1');
      formError.focus();
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors();
    const patch: Record<string, unknown> = {};
    for (const control of controls) {
      const value = control.read();
      if (JSON.stringify(value) !== JSON.stringify(control.original)) {
        patch[control.name] = value;
      }
    }
    if (Object.keys(patch).length === 0) {
      notify('Nothing changed.');
      return;
    }
    submit.disabled = true;
    context.client
      .updateSpendPolicy(accountId, patch as SpendPolicyPatch)
      .then((updated) => {
        notify(
          `Policy saved: ${Object.keys(patch).join(', ')} changed. It applies to the agent's next payment.`,
        );
        saved(updated);
      })
      .catch((error: unknown) => {
        submit.disabled = false;
        if (error instanceof CtsApiError && error.status === 400) {
          showError(error);
        } else {
          context.fail(error);
        }
      });
  });
  return form;
}
