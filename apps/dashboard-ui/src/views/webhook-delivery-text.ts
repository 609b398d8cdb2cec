import { type WebhookDelivery } from '@cts/sdk';

/** An attempt's `error` (no HTTP answer), in words. */
const ATTEMPT_ERRORS: Readonly<Record<string, string>> = {
  timeout: 'timed out',
  dns_error: 'DNS lookup failed',
  connection_refused: 'connection refused',
  connection_error: 'connection failed',
  tls_error: 'TLS handshake failed',
  destination_refused: 'address not allowed',
};

/** Why a delivery ended `failed`, in words. */
const FAILURE_REASONS: Readonly<Record<string, string>> = {
  endpoint_gone: 'the endpoint answered 410 Gone',
  retries_exhausted: 'retries exhausted',
};

export interface ResponseText {
  text: string;
  /** `ok` for a 2xx, `rejected` for any other answer or none. */
  tone?: 'ok' | 'rejected';
}

/** The last attempt's answer: its HTTP status, or why nothing answered (timeout, refused, TLS…). */
export function deliveryResponse(delivery: WebhookDelivery): ResponseText {
  const code = delivery.response_status_code;
  if (code !== null) {
    return { text: String(code), tone: code >= 200 && code < 300 ? 'ok' : 'rejected' };
  }
  if ((delivery.attempt_count ?? delivery.attempts?.length ?? 0) === 0) {
    return { text: 'not sent yet' };
  }
  const last = [...(delivery.attempts ?? [])].sort((a, b) => b.attempt_number - a.attempt_number)[0];
  const error = last?.response_status_code === null ? last.error : null;
  return {
    text: error ? `no answer: ${ATTEMPT_ERRORS[error] ?? error} (${error})` : 'no answer',
    tone: 'rejected',
  };
}

/** A failed delivery's `failure_reason` in words with its code; undefined when there is none. */
export function failureText(delivery: WebhookDelivery): string | undefined {
  const reason = delivery.status === 'failed' ? delivery.failure_reason : null;
  return reason ? `${FAILURE_REASONS[reason] ?? reason} (${reason})` : undefined;
}
