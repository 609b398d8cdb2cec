import { type Runtime } from '@cts/runtime';
import { type Logger } from 'pino';

export const GATEWAY_SETTINGS = Symbol('GATEWAY_SETTINGS');
export const GATEWAY_LOGGER = Symbol('GATEWAY_LOGGER');

/** What the gateway's features read from configuration, resolved once at start. */
export interface GatewaySettings {
  rateLimitPerMinute: number;
  /** Failed authentications per client address per minute before `429 rate_limited`. */
  authFailuresPerMinute: number;
  commandTimeoutMs: number;
  /** HMAC key of API key hashes: every replica must use the same one. */
  apiKeyHashKey: string;
  /** Seals amounts and memos before they leave the gateway (ARCHITECTURE §4); read when first used. */
  dataSealingKey: () => string;
  /** Unset: the admin API refuses every request. */
  adminToken: string | undefined;
  usageFlushIntervalMs: number;
  /** How long a request waits for a concurrent one with the same Idempotency-Key. */
  idempotencyWaitMs: number;
  now: () => number;
}

export interface GatewayTuning {
  usageFlushIntervalMs?: number;
  idempotencyWaitMs?: number;
  now?: () => number;
}

export function gatewaySettings(
  runtime: Runtime,
  logger: Logger,
  tuning: GatewayTuning = {},
): GatewaySettings {
  const { config, secrets } = runtime;
  return {
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    authFailuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
    commandTimeoutMs: config.COMMAND_TIMEOUT_MS,
    apiKeyHashKey: secrets.apiKeyHashKey,
    dataSealingKey: () => secrets.dataSealingKey,
    adminToken: optionalSecret(() => secrets.adminToken, logger),
    usageFlushIntervalMs: tuning.usageFlushIntervalMs ?? 5_000,
    idempotencyWaitMs: tuning.idempotencyWaitMs ?? config.COMMAND_TIMEOUT_MS + 1_000,
    now: tuning.now ?? Date.now,
  };
}

// The secrets getter throws when ADMIN_TOKEN is missing: the gateway still serves /v1 without it.
function optionalSecret(read: () => string, logger: Logger): string | undefined {
  try {
    return read();
  } catch {
    logger.warn('ADMIN_TOKEN is not set: the admin API refuses every request');
    return undefined;
  }
}
