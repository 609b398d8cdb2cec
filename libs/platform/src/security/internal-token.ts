import { createHash, timingSafeEqual } from 'node:crypto';

// INTERNAL_TOKEN guards the HTTP paths between a deployment's own apps (a service's direct queries,
// the gateway's posted replies). Unset, those paths stay open as they were, kept in by the network
// alone, so a deployment that predates the token keeps working until it sets one.

/** What a sender adds to an internal request: the bearer token, or nothing when none is configured. */
export function internalTokenHeaders(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/**
 * Whether an internal request may come in, from its `Authorization` header: only with the configured
 * token, or always when none is configured. The token's digest is computed once, here.
 */
export function internalTokenCheck(
  token: string | undefined,
): (authorization: string | undefined) => boolean {
  if (token === undefined) {
    return () => true;
  }
  const expected = digest(token);
  return (authorization) => {
    const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
    // Digests have equal lengths, so the comparison takes the same time whatever was presented.
    return presented !== undefined && timingSafeEqual(digest(presented), expected);
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
