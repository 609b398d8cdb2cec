import { type AppConfig } from '@cts/platform';
import {
  DEFAULT_JITTER_RATIO,
  DEFAULT_RETRY_WINDOW_MS,
  parseRetrySchedule,
  type RetryPolicy,
} from './attempts/retry-policy.domain';
import { type Resolver, systemResolver } from './ssrf/destination-guard';
import { parseDisableAfter } from './subscriptions/endpoint-health.domain';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** What tests (and only tests, mostly) tune; production reads everything from configuration. */
export interface WebhookDispatcherOptions {
  clock?: Clock;
  /** [0, 1): the jitter source. */
  random?: () => number;
  /** PEM CA certificates trusted for deliveries beside Node's roots (production: NODE_EXTRA_CA_CERTS). */
  extraCa?: string | readonly string[];
  resolve?: Resolver;
  /** How often each replica looks for due attempts (default 1 s; a new delivery is tried at once). */
  pollIntervalMs?: number;
  /** Attempts in flight per replica (lanes); each holds a database connection (default 4). */
  maxConcurrentAttempts?: number;
  /** Attempts in flight per endpoint (URL origin) per replica (default WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT). */
  maxInFlightPerEndpoint?: number;
  /** Last attempt no later than this after the first (default 24 h). */
  retryWindowMs?: number;
  /** How often the 30-day retention job runs (default 1 h). */
  retentionIntervalMs?: number;
  /** An endpoint failing this long is disabled (default WEBHOOK_DISABLE_AFTER, 5 days). */
  disableAfterMs?: number;
}

export interface DispatcherSettings {
  clock: Clock;
  random: () => number;
  retry: RetryPolicy;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  extraCa: string | readonly string[] | undefined;
  resolve: Resolver;
  pollIntervalMs: number;
  maxConcurrentAttempts: number;
  maxInFlightPerEndpoint: number;
  retentionIntervalMs: number;
  userAgent: string;
  /** WEBHOOK_DISABLE_AFTER: every attempt failing this long disables an endpoint. */
  disableAfterMs: number;
  /** WEBHOOK_MAX_SUBSCRIPTIONS_PER_ACCOUNT: live subscriptions per account and environment. */
  maxSubscriptionsPerAccount: number;
}

export const DISPATCHER_SETTINGS = Symbol('DISPATCHER_SETTINGS');

export const DEFAULT_MAX_CONCURRENT_ATTEMPTS = 4;

/**
 * Resolved once at start, from configuration only (`loadConfig`: an invalid value stops the service
 * with its reason, as an invalid WEBHOOK_RETRY_SCHEDULE does here).
 */
export function dispatcherSettings(
  config: AppConfig,
  options: WebhookDispatcherOptions = {},
): DispatcherSettings {
  return {
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    retry: {
      delaysMs: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE),
      windowMs: options.retryWindowMs ?? DEFAULT_RETRY_WINDOW_MS,
      jitterRatio: DEFAULT_JITTER_RATIO,
    },
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    extraCa: options.extraCa,
    resolve: options.resolve ?? systemResolver,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    maxConcurrentAttempts: options.maxConcurrentAttempts ?? DEFAULT_MAX_CONCURRENT_ATTEMPTS,
    maxInFlightPerEndpoint: options.maxInFlightPerEndpoint ?? config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
    retentionIntervalMs: options.retentionIntervalMs ?? 3_600_000,
    userAgent: 'cts-webhooks/1',
    disableAfterMs: options.disableAfterMs ?? parseDisableAfter(config.WEBHOOK_DISABLE_AFTER),
    maxSubscriptionsPerAccount: config.WEBHOOK_MAX_SUBSCRIPTIONS_PER_ACCOUNT,
  };
}
