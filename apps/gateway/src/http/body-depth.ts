import { DomainError } from '@cts/contracts';
import { type NextFunction, type Request, type Response } from 'express';

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

/**
 * Refuses a body nested deeper than MAX_BODY_DEPTH with 400 before anything handles it: a body of
 * 40,000 nested arrays overflowed the stack of the idempotency fingerprint (a 500).
 */
export function rejectDeepBodies(req: Request, _res: Response, next: NextFunction): void {
  if (nestsDeeperThan(req.body, MAX_BODY_DEPTH)) {
    next(new DomainError('invalid_request', `The request body nests deeper than ${MAX_BODY_DEPTH} levels`));
    return;
  }
  next();
}
