import { DomainError } from '@cts/contracts';
import { createHash } from 'node:crypto';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** Records (and so replays) live 24 h (ARCHITECTURE §3). */
export const RECORD_TTL_SECONDS = 24 * 60 * 60;

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export type IdempotencyRecord =
  /** `late`: its request already answered 503 and waits for the commands' late answer. */
  | { state: 'in_progress'; fingerprint: string; owner: string; late?: boolean }
  | { state: 'completed'; fingerprint: string; status: number; body: unknown };

/** The header's value, `undefined` when absent; `400` when it is not 1-255 visible ASCII characters. */
export function parseIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string' || !KEY_PATTERN.test(value)) {
    throw new DomainError(
      'invalid_request',
      `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters`,
      {
        param: IDEMPOTENCY_KEY_HEADER,
      },
    );
  }
  return value;
}

/** What makes two requests "the same": method, path and body (key order does not matter). */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

/** Whether a failed attempt is kept and replayed: client errors yes, except a request that never ran. */
export function isReplayableFailure(status: number, code: string): boolean {
  return status < 500 && code !== 'invalid_request';
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
