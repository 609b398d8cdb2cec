import { type WebhookAttemptError } from '@cts/contracts';

/** What a failed request threw, reduced to what classifying it needs. */
export interface RequestFailure {
  name?: string;
  code?: string;
  /** The code of the error's `cause` (undici wraps socket errors). */
  causeCode?: string;
  message?: string;
}

const TIMEOUT_NAMES = new Set(['TimeoutError', 'AbortError']);
const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
/** The destination guard's refusal (SSRF rules, checked at connect time). */
export const BLOCKED_CODE = 'EWEBHOOKBLOCKED';
/** OpenSSL verification codes (`CERT_HAS_EXPIRED`, `UNABLE_TO_VERIFY_LEAF_SIGNATURE`, …) and Node's TLS errors. */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;

/** The stable code the delivery log shows for an attempt that got no HTTP answer. */
export function classifyRequestFailure(failure: RequestFailure): WebhookAttemptError {
  const codes = [failure.code, failure.causeCode].filter((code): code is string => !!code);
  if ((failure.name && TIMEOUT_NAMES.has(failure.name)) || codes.some((code) => TIMEOUT_CODES.has(code))) {
    return 'timeout';
  }
  if (codes.includes(BLOCKED_CODE)) {
    return 'destination_refused';
  }
  if (codes.some((code) => DNS_CODES.has(code))) {
    return 'dns_error';
  }
  if (codes.includes('ECONNREFUSED')) {
    return 'connection_refused';
  }
  if (
    codes.some((code) => TLS_CODE.test(code)) ||
    /certificate|\btls\b|\bssl\b/i.test(failure.message ?? '')
  ) {
    return 'tls_error';
  }
  return 'connection_error';
}
