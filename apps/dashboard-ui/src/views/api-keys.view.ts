import { type ApiKey, CtsApiError } from '@cts/sdk';
import { type ViewContext, type ViewDefinition } from '../app/view';
import { amountElement } from '../ui/amount';
import { confirmAction } from '../ui/dialog';
import { button, cell, field, h, replaceChildren, table } from '../ui/dom';
import { timeElement } from '../ui/format';
import { notify } from '../ui/notices';
import { secretPanel } from './secret-panel';

const isCurrentKey = (context: ViewContext, key: ApiKey) =>
  key.environment === context.session.environment && context.session.apiKey.startsWith(key.prefix);

function keyRow(context: ViewContext, key: ApiKey, reload: () => void): HTMLTableRowElement {
  const total = key.encrypted_usdc_total
    ? amountElement(context.amounts.amount(key.encrypted_usdc_total, 'USDC'), 'USDC')
    : '0 USDC';
  const current = isCurrentKey(context, key);
  const revoke = async () => {
    const confirmed = await confirmAction({
      title: `Revoke “${key.name}”?`,
      message: `Every request with ${key.prefix}… is refused from now on. This cannot be undone.${current ? ' It is the key you are signed in with: you will be signed out.' : ''}`,
      confirmLabel: 'Revoke key',
      danger: true,
    });
    if (!confirmed) {
      return;
    }
    try {
      await context.client.revokeApiKey(key.key_id);
      if (current) {
        context.signOut(`Key “${key.name}” was revoked. Sign in with another key.`);
        return;
      }
      notify(`Key “${key.name}” revoked.`);
      reload();
    } catch (error) {
      context.fail(error);
    }
  };
  return h(
    'tr',
    { attrs: { 'data-key-id': key.key_id } },
    cell('Name', h('strong', {}, key.name), current ? h('span', { class: 'tag' }, ' (this session)') : ''),
    cell('Environment', key.environment),
    cell('Key', h('code', {}, `${key.prefix}…`)),
    cell('Created', timeElement(key.created_at)),
    cell('Last used', timeElement(key.last_used_at, 'never')),
    cell('Requests', String(key.request_count)),
    cell('USDC transferred', total),
    cell('Status', key.revoked_at ? h('span', {}, 'Revoked ', timeElement(key.revoked_at)) : 'Active'),
    cell(
      'Actions',
      key.revoked_at
        ? ''
        : button('Revoke', () => void revoke(), {
            class: 'danger',
            attrs: { 'aria-label': `Revoke ${key.name}` },
          }),
    ),
  );
}

function createForm(context: ViewContext, reload: () => void, secretSlot: HTMLElement): HTMLFormElement {
  const name = h('input', { attrs: { name: 'name', type: 'text', maxlength: 64, autocomplete: 'off' } });
  const environment = h(
    'select',
    { attrs: { name: 'environment' } },
    // A test key cannot create live keys (403): offer only what this session may create.
    (context.session.environment === 'live' ? (['test', 'live'] as const) : (['test'] as const)).map((env) =>
      h(
        'option',
        { attrs: { value: env, selected: env === context.session.environment } },
        env === 'test' ? 'Test (svc_test_)' : 'Live (svc_live_)',
      ),
    ),
  );
  const nameField = field('Name', name, 'What uses this key, e.g. “billing server”.');
  const submit = h('button', { class: 'primary', attrs: { type: 'submit' } }, 'Create key');
  const form = h(
    'form',
    { class: 'inline-form', attrs: { novalidate: true, 'aria-labelledby': 'create-key-title' } },
    h('h2', { id: 'create-key-title' }, 'Create a key'),
    nameField.wrapper,
    field('Environment', environment).wrapper,
    h('div', { class: 'actions' }, submit),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    nameField.error.hidden = true;
    name.removeAttribute('aria-invalid');
    submit.disabled = true;
    context.client
      .createApiKey({ name: name.value.trim(), environment: environment.value as 'test' | 'live' })
      .then((created) => {
        name.value = '';
        replaceChildren(
          secretSlot,
          secretPanel({
            title: `Key “${created.name}” created`,
            explanation:
              'Copy it now and store it safely: it is shown this once and cannot be retrieved later.',
            label: 'API key',
            secret: created.secret,
            onDone: () => secretSlot.replaceChildren(),
          }),
        );
        reload();
      })
      .catch((error: unknown) => {
        if (error instanceof CtsApiError && error.status === 400) {
          nameField.error.textContent = error.message;
          nameField.error.hidden = false;
          name.setAttribute('aria-invalid', 'true');
          name.focus();
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

async function render(context: ViewContext): Promise<void> {
  const list = h('div', { attrs: { 'aria-live': 'polite' } }, h('p', {}, 'Loading keys…'));
  const secretSlot = h('div');
  const reload = () => void load();
  const load = async () => {
    try {
      const [{ api_keys: keys }] = await Promise.all([context.client.apiKeys(), context.amounts.prepare()]);
      const { table: element, body } = table('Your API keys', [
        'Name',
        'Environment',
        'Key',
        'Created',
        'Last used',
        'Requests',
        'USDC transferred',
        'Status',
        'Actions',
      ]);
      body.append(...keys.map((key) => keyRow(context, key, reload)));
      replaceChildren(list, element);
    } catch (error) {
      replaceChildren(list, h('p', {}, 'The keys could not be loaded.'));
      context.fail(error);
    }
  };
  replaceChildren(
    context.root,
    h('h1', { attrs: { tabindex: -1 } }, 'API keys'),
    h(
      'p',
      { class: 'intro' },
      'Each key acts for this account in one environment. Request counts and last use are updated within a few seconds.',
    ),
    secretSlot,
    createForm(context, reload, secretSlot),
    h('h2', {}, 'Keys'),
    list,
  );
  await load();
}

export const apiKeysView: ViewDefinition = {
  title: 'API keys',
  render(context) {
    void render(context);
  },
};
