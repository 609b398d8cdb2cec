import { bearerToken, secretMatcher } from './bearer-token';

// INTERNAL_TOKEN guards the HTTP paths between a deployment's own apps (a service's direct queries,
// the gateway's posted replies). Unset, those paths stay open as they were, kept in by the network
// alone, so a deployment that predates the token keeps working until it sets one.

/** What a sender adds to an internal request: the bearer token, or nothing when none is configured. */
export function internalTokenHeaders(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/**
 * Whether an internal request may come in, from its `Authorization` header: only with the configured
 * token, or always when none is configured.
 */
export function internalTokenCheck(
  token: string | undefined,
): (authorization: string | undefined) => boolean {
  if (token === undefined) {
    return () => true;
  }
  const matches = secretMatcher(token);
  return (authorization) => {
    const presented = bearerToken(authorization);
    return presented !== undefined && matches(presented);
  };
}
