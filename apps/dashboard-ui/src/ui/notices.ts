import { CtsApiError, CtsNetworkError } from '@cts/sdk';
import { byId } from './dom';

let clearTimer: ReturnType<typeof setTimeout> | undefined;

/** Announces the outcome of an action: polite for success, assertive (role=alert) for failures. */
export function notify(message: string, kind: 'success' | 'error' = 'success'): void {
  const status = byId('notice-status');
  const alert = byId('notice-alert');
  const [target, other] = kind === 'error' ? [alert, status] : [status, alert];
  other.textContent = '';
  other.hidden = true;
  target.textContent = message;
  target.hidden = false;
  clearTimeout(clearTimer);
  if (kind === 'success') {
    clearTimer = setTimeout(() => {
      target.textContent = '';
      target.hidden = true;
    }, 8_000);
  }
}

export function clearNotices(): void {
  for (const id of ['notice-status', 'notice-alert']) {
    const element = byId(id);
    element.textContent = '';
    element.hidden = true;
  }
}

/** The API's own message (the same words as for any client), with its code and request id. */
export function describeError(error: unknown): string {
  if (error instanceof CtsApiError) {
    const reason = error.reason ? ` (${error.reason})` : '';
    const request = error.requestId ? ` Request ${error.requestId}.` : '';
    return `${error.message}${reason} [${error.code}].${request}`;
  }
  if (error instanceof CtsNetworkError) {
    return 'The service did not answer. Check your connection and try again.';
  }
  return error instanceof Error ? error.message : String(error);
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof CtsApiError && error.status === 401;
}
