/**
 * When a failed delivery is tried again (spec §6.4, ARCHITECTURE §6b): after each failure, the next
 * delay of the schedule with ±10 % jitter; attempts never go past the retry window (24 h after the
 * first attempt), and one final attempt is made at the window's end once the schedule is used up
 * (or would overshoot it). After that the delivery has failed.
 */
export interface RetryPolicy {
  /** Delay before the 2nd, 3rd, … attempt, each counted from the previous attempt. */
  delaysMs: readonly number[];
  /** The last attempt is no later than this long after the first. */
  windowMs: number;
  /** 0.1 = ±10 %. */
  jitterRatio: number;
}

export const DEFAULT_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_JITTER_RATIO = 0.1;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

/** `500ms`, `10s`, `1.5m`, `2h` → milliseconds. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text.trim());
  const unit = match?.[2];
  const ms = match && unit ? Math.round(Number(match[1]) * (UNIT_MS[unit] ?? 0)) : NaN;
  if (!(ms > 0)) {
    throw new Error(`"${text}" is not a positive duration such as 500ms, 10s, 5m or 2h`);
  }
  return ms;
}

/** `10s,1m,5m,30m,1h,2h,4h,8h` → delays in ms. Throws with the offending entry (fail at start). */
export function parseRetrySchedule(text: string): number[] {
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === '') {
    throw new Error('WEBHOOK_RETRY_SCHEDULE is empty');
  }
  return entries.map((entry) => {
    try {
      return parseDuration(entry);
    } catch (error) {
      throw new Error(`WEBHOOK_RETRY_SCHEDULE: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
  });
}

/** `delayMs` scaled by a factor in [1 − ratio, 1 + ratio); `random` returns [0, 1). */
export function jittered(delayMs: number, ratio: number, random: () => number): number {
  return Math.round(delayMs * (1 + ratio * (2 * random() - 1)));
}

export interface AttemptHistory {
  /** Attempts made so far, the one that just failed included (≥ 1). */
  attemptsMade: number;
  firstAttemptAt: Date;
  lastAttemptAt: Date;
}

/**
 * When to try again after a failed attempt; null when the delivery has failed for good.
 * `notBefore` is what the receiver asked for (`Retry-After`): it can move the attempt later than
 * the schedule but not earlier, and never past the window's end (clamped to it).
 */
export function nextAttemptAt(
  policy: RetryPolicy,
  history: AttemptHistory,
  random: () => number,
  notBefore: Date | null = null,
): Date | null {
  const windowEnd = history.firstAttemptAt.getTime() + policy.windowMs;
  const scheduled = scheduledAttemptAt(policy, history, windowEnd, random);
  if (scheduled === null || notBefore === null) {
    return scheduled === null ? null : new Date(scheduled);
  }
  return new Date(Math.min(Math.max(scheduled, notBefore.getTime()), windowEnd));
}

function scheduledAttemptAt(
  policy: RetryPolicy,
  history: AttemptHistory,
  windowEnd: number,
  random: () => number,
): number | null {
  const last = history.lastAttemptAt.getTime();
  const delay = policy.delaysMs[history.attemptsMade - 1];
  if (delay !== undefined) {
    const at = last + jittered(delay, policy.jitterRatio, random);
    if (at < windowEnd) {
      return at;
    }
  }
  // The schedule is used up, or its next step would overshoot: one last try at the window's end.
  return last < windowEnd ? windowEnd : null;
}
