import { randomBytes } from 'node:crypto';

export const ID_PREFIXES = [
  'acct',
  'tr',
  'atx',
  'pol',
  'wh',
  'evt',
  'dlv',
  'key',
  'req',
  'dom',
  'x402',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeBase32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) {
    out += CROCKFORD[(value << (5 - bits)) & 31];
  }
  return out;
}

/**
 * Prefixed, time-sortable identifier: 48-bit millisecond timestamp then 80 random bits, Crockford
 * base32 (like a ULID), so ids sort by creation time as strings and in btree indexes.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  let time = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes.set(randomBytes(10), 6);
  return `${prefix}_${encodeBase32(bytes)}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`).test(id);
}
