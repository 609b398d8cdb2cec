import { byId } from './dom';

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel: string;
  /** Styles the confirm button as destructive. */
  danger?: boolean;
}

/**
 * A modal `<dialog>`: focus moves into it (to Cancel, the safe choice), Escape cancels, and focus
 * returns to where it was. Resolves true only for the confirm button.
 */
export function confirmAction(options: ConfirmOptions): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>('confirm-dialog');
  const confirm = byId<HTMLButtonElement>('confirm-ok');
  const cancel = byId<HTMLButtonElement>('confirm-cancel');
  byId('confirm-title').textContent = options.title;
  byId('confirm-message').textContent = options.message;
  confirm.textContent = options.confirmLabel;
  confirm.className = options.danger ? 'danger' : 'primary';
  const previousFocus = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
  return new Promise((resolve) => {
    const finish = (answer: boolean) => {
      confirm.removeEventListener('click', onConfirm);
      cancel.removeEventListener('click', onCancel);
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) {
        dialog.close();
      }
      previousFocus?.focus();
      resolve(answer);
    };
    const onConfirm = () => finish(true);
    const onCancel = (event: Event) => {
      event.preventDefault();
      finish(false);
    };
    confirm.addEventListener('click', onConfirm);
    cancel.addEventListener('click', onCancel);
    dialog.addEventListener('cancel', onCancel);
    dialog.showModal();
    cancel.focus();
  });
}
