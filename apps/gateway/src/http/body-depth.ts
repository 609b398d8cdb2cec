/** Far deeper than any request of the API nests; JSON.stringify and validation recurse per level. */
export const MAX_BODY_DEPTH = 32;

/** Whether a parsed JSON value nests objects or arrays more than `max` levels deep (walked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, level] = next;
    if (node === null || typeof node !== 'object') {
      continue;
    }
    if (level > max) {
      return true;
    }
    for (const child of Object.values(node)) {
      pending.push([child, level + 1]);
    }
  }
  return false;
}
