import { type Amounts, decryptionKeyProblem } from '../crypto/amounts';
import { byId } from '../ui/dom';
import { notify } from '../ui/notices';

/**
 * The header's "Unlock amounts" / "Lock amounts" button: takes a decryption key into memory (checked
 * locally, never sent), or forgets it.
 */
export function setUpUnlockDialog(amounts: () => Amounts | undefined, changed: () => void): void {
  const dialog = byId<HTMLDialogElement>('unlock-dialog');
  const form = byId<HTMLFormElement>('unlock-form');
  const input = byId<HTMLInputElement>('unlock-key');
  const error = byId('unlock-error');
  const close = () => {
    input.value = '';
    error.hidden = true;
    input.removeAttribute('aria-invalid');
    dialog.close();
    byId('unlock-button').focus();
  };
  byId('unlock-button').addEventListener('click', () => {
    const current = amounts();
    if (!current) {
      return;
    }
    if (current.unlocked) {
      current.setKey(undefined);
      notify('Amounts locked: the decryption key was forgotten.');
      changed();
      return;
    }
    dialog.showModal();
    input.focus();
  });
  byId('unlock-cancel').addEventListener('click', close);
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    close();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = input.value.trim();
    const problem = key === '' ? 'Paste the decryption key (dk1_…).' : decryptionKeyProblem(key);
    if (problem) {
      error.textContent = problem;
      error.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    amounts()?.setKey(key);
    close();
    notify('Amounts unlocked for this tab.');
    changed();
  });
}
