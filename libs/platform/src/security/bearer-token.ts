import { createHash, timingSafeEqual } from 'node:crypto';

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match ? match[1] : undefined;
}

/**
 * Whether a presented secret is `expected`, in constant time: SHA-256 digests have equal lengths,
 * so the comparison takes the same time whatever was presented. `expected`'s digest is made once.
 */
export function secretMatcher(expected: string): (presented: string) => boolean {
  const expectedDigest = digest(expected);
  return (presented) => timingSafeEqual(digest(presented), expectedDigest);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
