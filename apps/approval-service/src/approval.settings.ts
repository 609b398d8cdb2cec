import { type AppConfig } from '@cts/platform';

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

/** From `APPROVAL_SWEEP_INTERVAL_MS` and `APPROVAL_FOLLOW_UP_LEASE_MS` (AppConfig; the lease defaults to 2 × the command timeout, at least 30 s). */
export function approvalSettingsFrom(config: AppConfig): ApprovalSettings {
  return {
    sweepIntervalMs: config.APPROVAL_SWEEP_INTERVAL_MS,
    followUpLeaseMs: config.APPROVAL_FOLLOW_UP_LEASE_MS ?? Math.max(30_000, 2 * config.COMMAND_TIMEOUT_MS),
    batchSize: 100,
  };
}
