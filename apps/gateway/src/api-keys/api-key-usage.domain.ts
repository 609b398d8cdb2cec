import { type ApiKey } from '@cts/contracts';

export interface KeyUsage {
  requests: number;
  lastUsedAt: string;
}

/**
 * Usage counters live in one cache hash, two fields per key: `<key_id>:n` (requests) and
 * `<key_id>:t` (last use). One hash, so a single atomic take moves both.
 */
export const countField = (keyId: string) => `${keyId}:n`;
export const lastUsedField = (keyId: string) => `${keyId}:t`;

/** Keys with counted requests; a key counted without its time (taken in between) gets `fallbackTime`. */
export function parseUsage(fields: Record<string, string>, fallbackTime: string): Map<string, KeyUsage> {
  const usage = new Map<string, KeyUsage>();
  for (const [field, value] of Object.entries(fields)) {
    const split = field.lastIndexOf(':');
    const [keyId, kind] = [field.slice(0, split), field.slice(split + 1)];
    const requests = Number(value);
    if (kind === 'n' && Number.isInteger(requests) && requests > 0) {
      usage.set(keyId, { requests, lastUsedAt: fields[lastUsedField(keyId)] ?? fallbackTime });
    }
  }
  return usage;
}

export function mergeUsage(a: Map<string, KeyUsage>, b: Map<string, KeyUsage>): Map<string, KeyUsage> {
  const merged = new Map(a);
  for (const [keyId, usage] of b) {
    const other = merged.get(keyId);
    merged.set(
      keyId,
      other
        ? {
            requests: other.requests + usage.requests,
            lastUsedAt: latest(other.lastUsedAt, usage.lastUsedAt),
          }
        : usage,
    );
  }
  return merged;
}

/** A key as stored, plus the requests counted since the last flush. */
export function withPendingUsage(key: ApiKey, pending: KeyUsage | undefined): ApiKey {
  if (!pending) {
    return key;
  }
  return {
    ...key,
    request_count: key.request_count + pending.requests,
    last_used_at:
      key.last_used_at === null ? pending.lastUsedAt : latest(key.last_used_at, pending.lastUsedAt),
  };
}

// ISO 8601 UTC timestamps with milliseconds sort as strings.
function latest(a: string, b: string): string {
  return a > b ? a : b;
}
