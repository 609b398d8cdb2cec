import { isIP } from 'node:net';
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

/** Every environment variable the apps read (docs/operations.md documents each). */
export const AppConfigSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** The gateway's Prometheus metrics: their own port, never the public API port. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9465),
  CTS_DATA_DIR: z.string().default('./.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ADMIN_TOKEN: z.string().min(24).optional(),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  KAFKA_BROKERS: z.string().optional(),
  KAFKA_GROUP_SUFFIX: z.string().default(''),
  /** A crashed consumer's partitions move to the others after this long (broker minimum 6 s). */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6000).default(30000),
  KAFKA_PROVISION_TOPICS: flag.default(true),
  /** SASL to the brokers: `plain`, `scram-sha-256` or `scram-sha-512`, with both credentials below. */
  KAFKA_SASL_MECHANISM: z.preprocess(
    (value) => (typeof value === 'string' ? value.toLowerCase() : value),
    z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  ),
  KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
  /** TLS to the brokers (the system's CAs, plus NODE_EXTRA_CA_CERTS for a private one). */
  KAFKA_SSL: flag,
  SERVICE_QUERY_URLS: z.string().optional(),
  /**
   * The gateway's address as the services reach it (a pod's IP): set, they post its replies to its
   * METRICS_PORT rather than the reply topic, which stays the fallback.
   */
  REPLY_HOST: z.string().optional(),
  /**
   * One secret shared by every app of a deployment: set, the internal HTTP paths (a service's direct
   * queries, the gateway's posted replies) take only `Authorization: Bearer <INTERNAL_TOKEN>`.
   */
  INTERNAL_TOKEN: z.string().min(32).optional(),
  COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(15000),
  CUSTODY_MASTER_KEY: z.string().optional(),
  DATA_SEALING_KEY: z.string().optional(),
  API_KEY_HASH_KEY: z.string().optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** Failed authentications (API keys and the admin token) per client address per minute, then 429. */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /**
   * gateway: which proxies' `X-Forwarded-For` to believe for the client's address (Express's `trust
   * proxy`: `true`, a hop count, or addresses/subnets such as `10.0.0.0/8,loopback`). Unset: none.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .refine(
      isTrustProxy,
      'expected true, false, a hop count, or addresses/subnets (e.g. 10.0.0.0/8,loopback)',
    )
    .optional(),
  MIGRATE_ON_START: flag,
  WEBHOOK_RETRY_SCHEDULE: z.string().default('10s,1m,5m,30m,1h,2h,4h,8h'),
  /** Below COMMAND_TIMEOUT_MS: a webhook DELETE or PATCH waits for the attempts in flight, and must answer in time. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10000),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: flag,
  /** Attempts in flight per endpoint (URL origin) per dispatcher replica. */
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce.number().int().positive().default(2),
  /** An endpoint whose every attempt failed for this long is disabled (`30m`, `12h`, `5d`). */
  WEBHOOK_DISABLE_AFTER: z.string().default('5d'),
  /** Webhook subscriptions an account may have in each environment. */
  WEBHOOK_MAX_SUBSCRIPTIONS_PER_ACCOUNT: z.coerce.number().int().positive().default(20),
  /** Local ledger state (both environments); default `<CTS_DATA_DIR>/ledger`. */
  LEDGER_STATE_DIR: z.string().optional(),
  /** Unset: the local ledger runs in this process. Set without LEDGER_ASSETS_*: a local ledger server. */
  LEDGER_RPC_URL_TEST: z.string().optional(),
  LEDGER_RPC_URL_LIVE: z.string().optional(),
  /** Real clusters: `USDC=<mint>:6,SOL=<mint>:9`. */
  LEDGER_ASSETS_TEST: z.string().optional(),
  LEDGER_ASSETS_LIVE: z.string().optional(),
  /** Real clusters: the fee payer's 32-byte ed25519 seed, base64. */
  LEDGER_FEE_PAYER_KEY_TEST: z.string().optional(),
  LEDGER_FEE_PAYER_KEY_LIVE: z.string().optional(),
  /** approval-service: how often a replica looks for overdue holds and unfinished follow-ups. */
  APPROVAL_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(5000),
  /** approval-service: work in progress left to its replica this long; default 2 × COMMAND_TIMEOUT_MS, at least 30 s. */
  APPROVAL_FOLLOW_UP_LEASE_MS: z.coerce.number().int().positive().optional(),
  /** transfer-service's proof engine: auto (native addon when built, else WebAssembly), native, wasm. */
  CTS_PROOF_ENGINE: z.enum(['auto', 'native', 'wasm']).default('auto'),
  /** A pending transfer untouched this long is reconciled with the ledger. */
  RECONCILE_AFTER_MS: z.coerce.number().int().positive().default(30000),
  /** A signed transfer the ledger still does not know after this long can no longer land (blockhash expired). */
  RECONCILE_GIVE_UP_MS: z.coerce.number().int().positive().default(120000),
});

export type AppConfig = z.infer<typeof AppConfigSchema>;

/** Settings that only make sense together. Messages name the variables, never their values. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isTrustProxy(value: string): boolean {
  if (value === '' || value === 'true' || value === 'false' || /^\d+$/.test(value)) {
    return true;
  }
  return value.split(',').every((item) => {
    const [address = '', prefix, extra] = item.trim().split('/');
    return (
      PROXY_NAMES.has(address) ||
      (isIP(address) !== 0 && extra === undefined && (prefix === undefined || /^\d{1,3}$/.test(prefix)))
    );
  });
}

const ConsistentAppConfig = AppConfigSchema.superRefine((config, context) => {
  const problem = (variable: string, message: string) =>
    context.addIssue({ code: 'custom', path: [variable], message });
  const {
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: username,
    KAFKA_SASL_PASSWORD: password,
  } = config;
  if (Boolean(username) !== Boolean(password)) {
    problem(
      username ? 'KAFKA_SASL_PASSWORD' : 'KAFKA_SASL_USERNAME',
      'KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are set together or not at all',
    );
  } else if (username && !mechanism) {
    problem(
      'KAFKA_SASL_MECHANISM',
      'broker credentials need a mechanism: plain, scram-sha-256 or scram-sha-512',
    );
  } else if (!username && mechanism) {
    problem('KAFKA_SASL_MECHANISM', 'a SASL mechanism needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD');
  }
});

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = ConsistentAppConfig.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw Object.assign(new Error(`Invalid configuration: ${problems}`), {
      code: 'CTS_INVALID_CONFIGURATION',
    });
  }
  return parsed.data;
}
