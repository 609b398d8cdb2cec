import { WEBHOOK_EVENT_TYPES } from '@cts/sdk';
import { h, uniqueId } from '../ui/dom';

export interface EventChoices {
  fieldset: HTMLFieldSetElement;
  error: HTMLParagraphElement;
  selected(): string[];
}

/** One checkbox per subscribable event type, as on create and edit. */
export function eventChoices(isChecked: (event: string) => boolean): EventChoices {
  const boxes = WEBHOOK_EVENT_TYPES.map((event) =>
    h('input', { attrs: { type: 'checkbox', name: 'events', value: event }, checked: isChecked(event) }),
  );
  const error = h('p', { class: 'field-error', id: uniqueId('webhook-events-error'), hidden: true });
  const fieldset = h(
    'fieldset',
    { class: 'field events', attrs: { 'aria-describedby': error.id } },
    h('legend', {}, 'Events'),
    boxes.map((box) => h('label', { class: 'checkbox' }, box, ` ${box.value}`)),
    error,
  );
  return { fieldset, error, selected: () => boxes.filter((box) => box.checked).map((box) => box.value) };
}
