// DOM building without HTML strings: every text goes through textContent, so nothing the API returns
// can become markup (and the page runs under Trusted Types with no policy at all).

export type Child = Node | string | number | null | undefined | false | readonly Child[];

type Listener = (event: Event) => void;

export interface Props {
  class?: string;
  id?: string;
  /** Attributes set as given: `for`, `type`, `name`, `role`, `aria-*`, `data-*`, `href`… */
  attrs?: Record<string, string | number | boolean | undefined>;
  /** Form control state, set as properties. */
  value?: string;
  checked?: boolean;
  disabled?: boolean;
  hidden?: boolean;
  on?: Record<string, Listener>;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(parent, ...(child as readonly Child[]));
    } else if (child instanceof Node) {
      parent.appendChild(child);
    } else {
      parent.appendChild(document.createTextNode(String(child as string | number)));
    }
  }
}

/** `h('button', { attrs: { type: 'button' }, on: { click } }, 'Save')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) {
    element.className = props.class;
  }
  if (props.id) {
    element.id = props.id;
  }
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === true) {
      element.setAttribute(name, '');
    } else if (value !== undefined && value !== false) {
      element.setAttribute(name, String(value));
    }
  }
  const control = element as HTMLElement & { value?: string; checked?: boolean; disabled?: boolean };
  if (props.value !== undefined) {
    control.value = props.value;
  }
  if (props.checked !== undefined) {
    control.checked = props.checked;
  }
  if (props.disabled !== undefined) {
    control.disabled = props.disabled;
  }
  if (props.hidden !== undefined) {
    element.hidden = props.hidden;
  }
  for (const [event, listener] of Object.entries(props.on ?? {})) {
    element.addEventListener(event, listener);
  }
  append(element, ...children);
  return element;
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) {
    throw new Error(`the page has no #${id}`);
  }
  return element as T;
}

let uniqueCounter = 0;
/** A fresh id for label/aria wiring. */
export function uniqueId(base: string): string {
  uniqueCounter += 1;
  return `${base}-${uniqueCounter}`;
}

/** A button that does not submit forms. */
export function button(label: Child, onClick: (event: Event) => void, props: Props = {}): HTMLButtonElement {
  return h(
    'button',
    { ...props, attrs: { type: 'button', ...props.attrs }, on: { ...props.on, click: onClick } },
    label,
  );
}

/** A table cell that names its column on narrow screens, where rows stack (see dashboard.css). */
export function cell(label: string, ...children: Child[]): HTMLTableCellElement {
  return h('td', { attrs: { 'data-label': label } }, ...children);
}

/** `<table>` with a caption and column headers; rows are appended by the caller. */
export function table(
  caption: string,
  columns: readonly string[],
  className = '',
): {
  table: HTMLTableElement;
  body: HTMLTableSectionElement;
} {
  const body = h('tbody');
  const element = h(
    'table',
    { class: `data-table ${className}`.trim() },
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((column) => h('th', { attrs: { scope: 'col' } }, column)),
      ),
    ),
    body,
  );
  return { table: element, body };
}

/** A labelled form field; `hint` is wired with aria-describedby, as is the error slot. */
export function field(
  label: string,
  control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
  hint?: string,
): { wrapper: HTMLDivElement; error: HTMLParagraphElement } {
  const id = control.id || uniqueId('field');
  control.id = id;
  const hintElement = hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : undefined;
  const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  control.setAttribute('aria-describedby', [hintElement?.id, error.id].filter(Boolean).join(' '));
  const wrapper = h(
    'div',
    { class: 'field' },
    h('label', { attrs: { for: id } }, label),
    hintElement,
    control,
    error,
  );
  return { wrapper, error };
}
