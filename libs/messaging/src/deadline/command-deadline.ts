import { fail, type MessageContext, type Result } from '@cts/contracts';
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Taken off an inherited deadline at each hop, so a handler still has time to pass its peer's
 * failure back before its own caller stops waiting (the hops' clocks would otherwise expire together).
 */
export const HOP_REPLY_MARGIN_MS = 200;

/**
 * When a command sent now must be answered (epoch ms). The first sender gives it its own timeout; a
 * command sent while handling another inherits what is left of that one's deadline, less the hop's
 * reply margin, and never more than the sender's own timeout.
 */
export function commandDeadline(now: number, timeoutMs: number, inherited: number | undefined): number {
  const own = now + timeoutMs;
  return inherited === undefined ? own : Math.min(own, inherited - HOP_REPLY_MARGIN_MS);
}

/** What is left of `deadlineAt` at `now`, in ms; zero or less means it has passed. */
export function remainingMs(deadlineAt: number, now: number): number {
  return deadlineAt - now;
}

/** Whether a received command's deadline has passed (a command without one never expires). */
export function isExpired(deadlineAt: number | undefined, now: number): boolean {
  return deadlineAt !== undefined && remainingMs(deadlineAt, now) <= 0;
}

/** The answer to a command whose deadline passed before it was sent or before its handler started it. */
export function deadlineExceeded(topic: string, where: string): Result<never> {
  return fail(
    'service_unavailable',
    `The ${topic} command's deadline passed ${where}; retry with the same Idempotency-Key`,
    { reason: 'deadline_exceeded' },
  );
}

/** The deadline of the command being handled, for every command its handler sends (however deep). */
const handling = new AsyncLocalStorage<number | undefined>();

/** Runs a command's handler under its deadline. */
export function runUnderDeadline<T>(deadlineAt: number | undefined, work: () => Promise<T>): Promise<T> {
  return handling.run(deadlineAt, work);
}

/** Runs work that answers to no command's deadline (an event handler, a sweep). */
export function runWithoutDeadline<T>(work: () => Promise<T>): Promise<T> {
  return handling.run(undefined, work);
}

/**
 * The deadline a command sent in `context` inherits: the context's own (from `contextFrom`) or the
 * handled command's, the earlier of the two; none when the context asks for a fresh one (`null`).
 */
export function inheritedDeadline(context: MessageContext): number | undefined {
  if (context.deadlineAt === null) {
    return undefined;
  }
  const current = handling.getStore();
  const candidates = [context.deadlineAt, current].filter((d): d is number => d !== undefined);
  return candidates.length === 0 ? undefined : Math.min(...candidates);
}

/**
 * `context` detached from any deadline: for a compensation (giving a spend reservation back) that must
 * run even when the command that caused it has run out of time.
 */
export function withFreshDeadline(context: MessageContext): MessageContext {
  return { ...context, deadlineAt: null };
}
