import { isWellFormedText } from '@cts/contracts';

/** Far deeper than any request of the API nests; JSON.stringify and validation recurse per level. */
export const MAX_BODY_DEPTH = 32;

/** Why a parsed JSON body cannot be used whatever the route, with where when it is one field. */
export type BodyProblem = { kind: 'too_deep' } | { kind: 'lone_surrogate'; at: string };

/**
 * Walks a parsed JSON value without recursion: nested objects or arrays more than `maxDepth` levels
 * deep, or a string (value or key) with a lone surrogate. A lone surrogate has no UTF-8 form: stored
 * as text it silently becomes U+FFFD, and PostgreSQL refuses it in JSON, so it is refused up front.
 */
export function bodyProblem(value: unknown, maxDepth: number): BodyProblem | null {
  const pending: [unknown, number, string][] = [[value, 1, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, level, at] = next;
    if (typeof node === 'string') {
      if (!isWellFormedText(node)) {
        return { kind: 'lone_surrogate', at };
      }
      continue;
    }
    if (node === null || typeof node !== 'object') {
      continue;
    }
    if (level > maxDepth) {
      return { kind: 'too_deep' };
    }
    for (const [key, child] of Object.entries(node)) {
      const path = at === '' ? key : `${at}.${key}`;
      if (!isWellFormedText(key)) {
        return { kind: 'lone_surrogate', at: path };
      }
      pending.push([child, level + 1, path]);
    }
  }
  return null;
}
