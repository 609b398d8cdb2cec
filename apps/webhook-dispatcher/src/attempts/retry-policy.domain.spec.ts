import fc from 'fast-check';
import {
  jittered,
  nextAttemptAt,
  parseDuration,
  parseRetrySchedule,
  type RetryPolicy,
} from './retry-policy.domain';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

describe('parseRetrySchedule', () => {
  it('reads ms, s, m and h', () => {
    expect(parseRetrySchedule('10s,1m,5m,30m,1h,2h,4h,8h')).toEqual([
      10 * S,
      M,
      5 * M,
      30 * M,
      H,
      2 * H,
      4 * H,
      8 * H,
    ]);
    expect(parseRetrySchedule(' 500ms , 1.5s,2m ')).toEqual([500, 1500, 2 * M]);
  });

  it.each(['', '10', '10x', '-1s', '0s', '1s,,2s', '1 s', 'fast'])(
    'refuses %p, naming the setting',
    (text) => {
      expect(() => parseRetrySchedule(text)).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    },
  );

  it('parses single durations', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(() => parseDuration('1d')).toThrow(/not a positive duration/);
  });
});

describe('jittered', () => {
  it('stays within ±10 % of the delay for any random draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 * H }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (delay, r) => {
          const value = jittered(delay, 0.1, () => r);
          expect(value).toBeGreaterThanOrEqual(Math.floor(delay * 0.9));
          expect(value).toBeLessThanOrEqual(Math.ceil(delay * 1.1));
        },
      ),
    );
  });

  it('spans the whole band: the lowest draw is −10 %, the middle none', () => {
    expect(jittered(10_000, 0.1, () => 0)).toBe(9_000);
    expect(jittered(10_000, 0.1, () => 0.5)).toBe(10_000);
    expect(jittered(10_000, 0.1, () => 0.999999)).toBe(11_000);
  });
});

describe('nextAttemptAt', () => {
  const policy: RetryPolicy = {
    delaysMs: parseRetrySchedule('10s,1m,5m,30m,1h,2h,4h,8h'),
    windowMs: 24 * H,
    jitterRatio: 0.1,
  };
  const noJitter = () => 0.5;
  const t0 = new Date('2026-01-01T00:00:00.000Z');

  /** Every attempt time of a delivery that never succeeds, each made exactly when due. */
  function attemptTimes(p: RetryPolicy, random: () => number): number[] {
    const times = [t0.getTime()];
    for (;;) {
      const last = times[times.length - 1] ?? 0;
      const next = nextAttemptAt(
        p,
        { attemptsMade: times.length, firstAttemptAt: t0, lastAttemptAt: new Date(last) },
        random,
      );
      if (!next) {
        return times;
      }
      times.push(next.getTime());
    }
  }

  it('follows the default schedule, then a final try 24 h after the first attempt, then gives up', () => {
    const times = attemptTimes(policy, noJitter).map((t) => t - t0.getTime());
    expect(times).toEqual([
      0,
      10 * S,
      70 * S,
      370 * S,
      2170 * S,
      5770 * S,
      12970 * S,
      27370 * S,
      56170 * S,
      24 * H,
    ]);
  });

  it('never schedules past the 24 h window, whatever the jitter', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          minLength: 20,
          maxLength: 20,
        }),
        (draws) => {
          let i = 0;
          const times = attemptTimes(policy, () => draws[i++ % draws.length] ?? 0.5);
          expect(times[times.length - 1]).toBe(t0.getTime() + 24 * H);
          expect(times.every((t, k) => k === 0 || t > (times[k - 1] ?? 0))).toBe(true);
        },
      ),
    );
  });

  it('clamps a schedule longer than the window to one final try at its end', () => {
    const long: RetryPolicy = { delaysMs: [10 * H, 10 * H, 10 * H], windowMs: 24 * H, jitterRatio: 0 };
    expect(attemptTimes(long, noJitter).map((t) => (t - t0.getTime()) / H)).toEqual([0, 10, 20, 24]);
  });

  it('runs out quickly on a short test schedule and window', () => {
    const short: RetryPolicy = { delaysMs: [200, 200], windowMs: 1000, jitterRatio: 0.1 };
    expect(attemptTimes(short, noJitter).map((t) => t - t0.getTime())).toEqual([0, 200, 400, 1000]);
  });

  it('gives up once an attempt was made at or after the end of the window', () => {
    const late = new Date(t0.getTime() + 24 * H + 5000);
    expect(
      nextAttemptAt(policy, { attemptsMade: 10, firstAttemptAt: t0, lastAttemptAt: late }, noJitter),
    ).toBeNull();
    expect(
      nextAttemptAt(policy, { attemptsMade: 2, firstAttemptAt: t0, lastAttemptAt: late }, noJitter),
    ).toBeNull();
  });
});

describe('nextAttemptAt with a Retry-After', () => {
  const policy: RetryPolicy = { delaysMs: [10 * S, M, 5 * M], windowMs: 24 * H, jitterRatio: 0.1 };
  const t0 = new Date('2026-01-01T00:00:00.000Z');
  const noJitter = () => 0.5;
  const after = (attemptsMade: number, lastMs: number, notBeforeMs: number | null) =>
    nextAttemptAt(
      policy,
      { attemptsMade, firstAttemptAt: t0, lastAttemptAt: new Date(t0.getTime() + lastMs) },
      noJitter,
      notBeforeMs === null ? null : new Date(t0.getTime() + notBeforeMs),
    )?.getTime() ?? null;

  it('waits as long as the receiver asks when that is later than the schedule', () => {
    expect(after(1, 0, 2 * M)).toBe(t0.getTime() + 2 * M);
  });

  it('never comes back earlier than the schedule, however soon the receiver asks', () => {
    expect(after(1, 0, 1 * S)).toBe(t0.getTime() + 10 * S);
    expect(after(1, 0, -H)).toBe(t0.getTime() + 10 * S);
  });

  it('clamps a Retry-After beyond the window to one final try at its end', () => {
    expect(after(1, 0, 48 * H)).toBe(t0.getTime() + 24 * H);
    expect(after(3, 20 * H, 30 * H)).toBe(t0.getTime() + 24 * H);
    expect(after(3, 20 * H, 23 * H)).toBe(t0.getTime() + 23 * H);
  });

  it('gives up once the window is over, whatever the receiver asks', () => {
    expect(after(4, 24 * H, 25 * H)).toBeNull();
  });

  it('always lands between the scheduled time and the end of the window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 24 * H - 1 }),
        fc.integer({ min: -H, max: 48 * H }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attemptsMade, lastMs, notBeforeMs, r) => {
          const history = {
            attemptsMade,
            firstAttemptAt: t0,
            lastAttemptAt: new Date(t0.getTime() + lastMs),
          };
          const scheduled = nextAttemptAt(policy, history, () => r)?.getTime();
          const honoured = nextAttemptAt(
            policy,
            history,
            () => r,
            new Date(t0.getTime() + notBeforeMs),
          )?.getTime();
          expect(scheduled).toBeDefined();
          expect(honoured).toBeGreaterThanOrEqual(scheduled ?? Infinity);
          expect(honoured).toBeGreaterThanOrEqual(
            Math.min(t0.getTime() + notBeforeMs, t0.getTime() + 24 * H),
          );
          expect(honoured).toBeLessThanOrEqual(t0.getTime() + 24 * H);
        },
      ),
    );
  });
});
