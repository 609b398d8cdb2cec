import { button, h, uniqueId } from '../ui/dom';
import { notify } from '../ui/notices';

export interface SecretPanelOptions {
  title: string;
  explanation: string;
  label: string;
  secret: string;
  onDone: () => void;
}

/** A secret the API returns once (new API key, webhook signing secret): shown with a copy button. */
export function secretPanel(options: SecretPanelOptions): HTMLElement {
  const titleId = uniqueId('secret-title');
  const inputId = uniqueId('secret');
  const input = h('input', {
    id: inputId,
    class: 'secret',
    attrs: { type: 'text', readonly: true, spellcheck: 'false', autocomplete: 'off', 'data-secret': 'true' },
    value: options.secret,
  });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(options.secret);
      notify(`${options.label} copied to the clipboard.`);
    } catch {
      // No clipboard permission (or an insecure context): leave it selected for Ctrl+C.
      input.focus();
      input.select();
      notify(
        `Copying was refused by the browser: the ${options.label.toLowerCase()} is selected, press Ctrl+C.`,
        'error',
      );
    }
  };
  const heading = h('h2', { id: titleId, attrs: { tabindex: -1 } }, options.title);
  const panel = h(
    'section',
    { class: 'secret-panel', attrs: { 'aria-labelledby': titleId } },
    heading,
    h('p', {}, h('strong', {}, options.explanation)),
    h('label', { attrs: { for: inputId } }, options.label),
    h(
      'div',
      { class: 'secret-row' },
      input,
      button('Copy', () => void copy(), { class: 'primary' }),
    ),
    h(
      'div',
      { class: 'actions' },
      button('I have stored it', () => options.onDone()),
    ),
  );
  queueMicrotask(() => heading.focus());
  return panel;
}
