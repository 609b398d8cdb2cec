import {
  commandDeadline,
  HOP_REPLY_MARGIN_MS,
  inheritedDeadline,
  isExpired,
  remainingMs,
  runUnderDeadline,
  runWithoutDeadline,
  withFreshDeadline,
} from './command-deadline';

const resolved = <T>(value: T): Promise<T> => Promise.resolve(value);
const context = { correlationId: 'req_1', environment: 'test' as const, accountId: null };

describe('command deadlines', () => {
  it("gives a first command the sender's own timeout", () => {
    expect(commandDeadline(1_000, 15_000, undefined)).toBe(16_000);
  });

  it('gives a nested command what is left of the inherited deadline, less the reply margin', () => {
    expect(commandDeadline(10_000, 15_000, 16_000)).toBe(16_000 - HOP_REPLY_MARGIN_MS);
  });

  it("never waits longer than the sender's own timeout, even under a later inherited deadline", () => {
    expect(commandDeadline(1_000, 2_000, 60_000)).toBe(3_000);
  });

  it('counts what is left and calls a deadline at or before now expired', () => {
    expect(remainingMs(5_000, 4_000)).toBe(1_000);
    expect(isExpired(5_000, 4_999)).toBe(false);
    expect(isExpired(5_000, 5_000)).toBe(true);
    expect(isExpired(5_000, 9_000)).toBe(true);
  });

  it('never expires a command that carries no deadline', () => {
    expect(isExpired(undefined, Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it('inherits the deadline of the command being handled, in every await below its handler', async () => {
    const seen = await runUnderDeadline(42_000, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return inheritedDeadline(context);
    });
    expect(seen).toBe(42_000);
    expect(inheritedDeadline(context)).toBeUndefined();
  });

  it("takes the earlier of the context's deadline and the handled command's", async () => {
    expect(
      await runUnderDeadline(50_000, () => resolved(inheritedDeadline({ ...context, deadlineAt: 40_000 }))),
    ).toBe(40_000);
    expect(
      await runUnderDeadline(30_000, () => resolved(inheritedDeadline({ ...context, deadlineAt: 40_000 }))),
    ).toBe(30_000);
  });

  it('gives a compensation a fresh deadline, whatever it was caused by', async () => {
    const fresh = await runUnderDeadline(42_000, () =>
      resolved(inheritedDeadline(withFreshDeadline({ ...context, deadlineAt: 42_000 }))),
    );
    expect(fresh).toBeUndefined();
  });

  it('lets an event handler run free of the deadline of whatever published the event', async () => {
    const seen = await runUnderDeadline(42_000, () =>
      runWithoutDeadline(() => resolved(inheritedDeadline(context))),
    );
    expect(seen).toBeUndefined();
  });
});
