import { type Opened } from '../crypto/amounts';
import { h } from './dom';

/** An amount as the page could open it: the value, "Locked" without a key, or why it did not open. */
export function amountElement(opened: Opened, asset?: string): HTMLElement {
  switch (opened.state) {
    case 'open':
      return h('span', { class: 'amount' }, asset ? `${opened.text} ${asset}` : opened.text);
    case 'locked':
      return h(
        'span',
        { class: 'locked', attrs: { title: 'Unlock amounts with your decryption key to read it' } },
        'Locked',
      );
    case 'unreadable':
      return h('span', { class: 'unreadable', attrs: { title: opened.why } }, `Unreadable (${opened.why})`);
  }
}
