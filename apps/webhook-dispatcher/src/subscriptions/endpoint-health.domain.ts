/**
 * Automatic disabling (like Svix): an endpoint whose every attempt failed for `disableAfterMs` —
 * counted from the first failure after its last success — is disabled, and its account is told.
 * A success at any time resets the clock.
 */
export type HealthChange =
  | { kind: 'none' }
  | { kind: 'recovered' }
  | { kind: 'started_failing'; at: Date }
  | { kind: 'disable'; failingSince: Date };

export function healthAfterAttempt(
  failingSince: Date | null,
  succeeded: boolean,
  at: Date,
  disableAfterMs: number,
): HealthChange {
  if (succeeded) {
    return failingSince === null ? { kind: 'none' } : { kind: 'recovered' };
  }
  if (failingSince === null) {
    return { kind: 'started_failing', at };
  }
  return at.getTime() - failingSince.getTime() >= disableAfterMs
    ? { kind: 'disable', failingSince }
    : { kind: 'none' };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS };

/** WEBHOOK_DISABLE_AFTER: `90s`, `30m`, `12h`, `5d` → milliseconds; anything else stops the start. */
export function parseDisableAfter(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h|d)$/.exec(text.trim());
  const ms = match ? Math.round(Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? 0)) : NaN;
  if (!(ms > 0)) {
    throw new Error(
      `Invalid configuration: WEBHOOK_DISABLE_AFTER: "${text}" is not a duration such as 90s, 30m, 12h or 5d`,
    );
  }
  return ms;
}

/** After a rotation the previous secret signs beside the new one this long. */
export const SECRET_OVERLAP_MS = DAY_MS;

/**
 * The secrets a delivery is signed with now, newest first: the current one, and the previous one
 * until its overlap ends.
 */
export function signingSecrets(
  current: string,
  previous: { secret: string; expiresAt: Date } | null,
  now: Date,
): string[] {
  return previous && previous.expiresAt.getTime() > now.getTime() ? [current, previous.secret] : [current];
}
