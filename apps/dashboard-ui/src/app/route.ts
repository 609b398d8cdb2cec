export interface Route {
  name: string;
  path: string[];
  query: URLSearchParams;
}

/**
 * `#/agents/acct_1?x=y` → its view name, path segments and query; undefined for a non-route (`#main`).
 * A hash that does not decode (`%E0%A4%A`, typed or pasted) is an unknown route (name ''), which the
 * app sends to its first screen: a thrown URIError would end the start-up.
 */
export function parseHash(hash: string): Route | undefined {
  if (!hash.startsWith('#/')) {
    return undefined;
  }
  const [route, query = ''] = hash.slice(2).split('?');
  let segments: string[];
  try {
    segments = route.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    segments = [];
  }
  const [name = '', ...path] = segments;
  return { name, path, query: new URLSearchParams(query) };
}
