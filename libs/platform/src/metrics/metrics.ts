import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus registry (`/metrics` on every app). In the one-process mode every service
 * shares it: metrics carry a `service` label where it matters. WARNING: no label may ever hold an
 * amount, an account id or anything else unbounded.
 */
export const metricsRegistry = new Registry();
// The event-loop lag histogram samples on a timer of its own: at prom-client's 10 ms it woke every
// app 100 times a second at rest; every 100 ms still catches a loop blocked for longer.
collectDefaultMetrics({ register: metricsRegistry, prefix: 'cts_', eventLoopMonitoringPrecision: 100 });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function once<T>(name: string, create: () => T): T {
  return (metricsRegistry.getSingleMetric(name) as T | undefined) ?? create();
}

export const httpRequestDuration = once(
  'cts_http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'cts_http_request_duration_seconds',
      help: 'Gateway HTTP request latency by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [metricsRegistry],
    }),
);

export const commandRoundTrip = once(
  'cts_command_round_trip_seconds',
  () =>
    new Histogram({
      name: 'cts_command_round_trip_seconds',
      // `topic` is the command's type (`transfer.create`), not its Kafka topic (`transfer.commands`):
      // the name is kept from when each command had a topic of its own, and queries match on it.
      help: 'Command request/reply round trip, by command type (label topic, e.g. transfer.create) and outcome (ok, an error code, timeout, deadline_exceeded, invalid_reply)',
      labelNames: ['topic', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers: [metricsRegistry],
    }),
);

export const handledMessages = once(
  'cts_handled_messages_total',
  () =>
    new Counter({
      name: 'cts_handled_messages_total',
      help: 'Commands, queries and events a service handled, by type: per replica, the work it took',
      labelNames: ['service', 'type'],
      registers: [metricsRegistry],
    }),
);

export const expiredCommands = once(
  'cts_commands_expired_total',
  () =>
    new Counter({
      name: 'cts_commands_expired_total',
      help: 'Commands a service did not start because their deadline had passed on arrival, by type',
      labelNames: ['service', 'type'],
      registers: [metricsRegistry],
    }),
);

export const consumerLag = once(
  'cts_consumer_lag_messages',
  () =>
    new Gauge({
      name: 'cts_consumer_lag_messages',
      help: 'Messages not yet consumed by a consumer group, per topic (Kafka mode)',
      labelNames: ['group', 'topic'],
      registers: [metricsRegistry],
    }),
);

export const outboxBacklog = once(
  'cts_outbox_backlog_events',
  () =>
    new Gauge({
      name: 'cts_outbox_backlog_events',
      help: 'Events committed to a service outbox and not yet published',
      labelNames: ['service'],
      registers: [metricsRegistry],
    }),
);

/** The `outcome` label of a webhook delivery attempt, and what each means (the metric's help). */
export const WEBHOOK_ATTEMPT_OUTCOMES = {
  succeeded: 'a 2xx',
  failed: 'another HTTP status',
  no_response: 'no HTTP answer: timeout, connection, TLS or DNS error, refused address',
} as const;
export type WebhookAttemptOutcome = keyof typeof WEBHOOK_ATTEMPT_OUTCOMES;

export const webhookAttempts = once(
  'cts_webhook_attempts_total',
  () =>
    new Counter({
      name: 'cts_webhook_attempts_total',
      help: `Webhook delivery attempts by outcome: ${Object.entries(WEBHOOK_ATTEMPT_OUTCOMES)
        .map(([outcome, meaning]) => `${outcome} (${meaning})`)
        .join('; ')}`,
      labelNames: ['outcome'],
      registers: [metricsRegistry],
    }),
);

export const transferSettlement = once(
  'cts_transfer_settlement_seconds',
  () =>
    new Histogram({
      name: 'cts_transfer_settlement_seconds',
      help: 'From the settlement lock to the final status, by asset and outcome',
      labelNames: ['asset', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers: [metricsRegistry],
    }),
);

/** Where the proof-pool gauges read from at scrape time (transfer-service registers its pool). */
let proofPoolStats: (() => { queued: number; busy: number }) | null = null;

export function observeProofPool(stats: () => { queued: number; busy: number }): void {
  proofPoolStats = stats;
}

export const proofPoolQueueDepth = once(
  'cts_proof_pool_queue_depth',
  () =>
    new Gauge({
      name: 'cts_proof_pool_queue_depth',
      help: 'Proof jobs waiting for a worker thread',
      registers: [metricsRegistry],
      collect() {
        this.set(proofPoolStats?.().queued ?? 0);
      },
    }),
);

export const proofPoolBusyWorkers = once(
  'cts_proof_pool_busy_workers',
  () =>
    new Gauge({
      name: 'cts_proof_pool_busy_workers',
      help: 'Proof worker threads busy now',
      registers: [metricsRegistry],
      collect() {
        this.set(proofPoolStats?.().busy ?? 0);
      },
    }),
);
