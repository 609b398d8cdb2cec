import { z } from 'zod';

/** How approval-service paces its background work. */
export interface ApprovalSettings {
  /** How often a replica looks for overdue holds and unfinished follow-ups. */
  sweepIntervalMs: number;
  /**
   * How long work in progress (a CreateTransfer awaiting its reply, a release) is left to its
   * replica before another may redo it; also the base of the retry backoff. WARNING: keep it above
   * COMMAND_TIMEOUT_MS, or a slow reply and a resend overlap (harmless — same idempotency key — but
   * wasted).
   */
  followUpLeaseMs: number;
  /** Rows claimed per sweep step. */
  batchSize: number;
}

export const APPROVAL_SETTINGS = Symbol('APPROVAL_SETTINGS');

const Millis = z.coerce.number().int().positive();

/** `APPROVAL_SWEEP_INTERVAL_MS` (default 5 s) and `APPROVAL_FOLLOW_UP_LEASE_MS` (default 2 × the command timeout, at least 30 s). */
export function approvalSettingsFrom(env: NodeJS.ProcessEnv, commandTimeoutMs: number): ApprovalSettings {
  const parsed = z
    .object({
      APPROVAL_SWEEP_INTERVAL_MS: Millis.default(5_000),
      APPROVAL_FOLLOW_UP_LEASE_MS: Millis.default(Math.max(30_000, 2 * commandTimeoutMs)),
    })
    .safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return {
    sweepIntervalMs: parsed.data.APPROVAL_SWEEP_INTERVAL_MS,
    followUpLeaseMs: parsed.data.APPROVAL_FOLLOW_UP_LEASE_MS,
    batchSize: 100,
  };
}
