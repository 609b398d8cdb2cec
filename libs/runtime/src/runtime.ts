import {
  type InProcessBus,
  type KafkaSettings,
  defaultInProcessBus,
  kafkaConnectionOf,
} from '@cts/messaging';
import {
  type AppConfig,
  type ReadinessProbe,
  resolveSecrets,
  type Secrets,
  type CacheStore,
  MemoryCacheStore,
  RedisCacheStore,
  createLogger,
  kafkaLogCreator,
  startTracing,
  stopTracing,
} from '@cts/platform';
import { startEmbeddedPostgres } from '@cts/persistence';
import { type Logger } from 'pino';

/**
 * What differs between the two modes, decided once at start: the same modules are wired to these
 * adapters (ARCHITECTURE §2). Services never look at `mode` themselves.
 */
export interface Runtime {
  mode: 'embedded' | 'distributed';
  config: AppConfig;
  secrets: Secrets;
  databaseUrl: string;
  /**
   * The runtime started PostgreSQL for this process alone (the one-process mode's embedded server,
   * whose data directory one server at a time may hold): no other process can share its locks.
   */
  ownsDatabase?: boolean;
  /** The in-process broker (embedded mode). */
  bus?: InProcessBus;
  /** Kafka connection settings (distributed mode). */
  kafka?: KafkaSettings;
  logger: (name: string) => Logger;
  /**
   * Where the services this process runs register their readiness probes (database, ledger), so an
   * app that answers `/readyz` for the whole process (the one-process gateway) checks them too.
   */
  sharedProbes?: ReadinessProbe[];
  createCache(): CacheStore;
  /** Releases what the runtime itself started (the embedded database). */
  stop(): Promise<void>;
}

export async function createEmbeddedRuntime(config: AppConfig): Promise<Runtime> {
  startTracing('cts');
  const postgres = config.DATABASE_URL ? undefined : await startEmbeddedPostgres(config.CTS_DATA_DIR);
  const cache = new MemoryCacheStore();
  return {
    mode: 'embedded',
    config,
    secrets: resolveSecrets(config, true),
    databaseUrl: config.DATABASE_URL ?? postgres?.url ?? '',
    ownsDatabase: postgres !== undefined,
    bus: defaultInProcessBus(),
    logger: (name) => createLogger(name, config.LOG_LEVEL),
    sharedProbes: [],
    createCache: () => cache,
    stop: async () => {
      await stopTracing();
      await postgres?.stop();
    },
  };
}

/** Why a distributed gateway refuses to start on a memory cache rather than degrade silently. */
export const MISSING_REDIS =
  'REDIS_URL is not set: the distributed mode keeps API-key revocations, rate limits and Idempotency-Keys in Redis, ' +
  'shared by every gateway replica. A per-replica memory cache would let a revoked key keep working, multiply rate ' +
  'limits and move money twice for one Idempotency-Key. Set REDIS_URL (npm start runs the one-process mode without it).';

export function createDistributedRuntime(config: AppConfig, clientId: string): Runtime {
  if (!config.KAFKA_BROKERS) {
    throw new Error('The distributed mode needs KAFKA_BROKERS');
  }
  const redisUrl = config.REDIS_URL;
  startTracing(clientId);
  return {
    mode: 'distributed',
    config,
    secrets: resolveSecrets(config, false),
    databaseUrl: config.DATABASE_URL ?? '',
    kafka: {
      ...kafkaConnectionOf(config),
      clientId,
      groupSuffix: config.KAFKA_GROUP_SUFFIX,
      sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
      logCreator: kafkaLogCreator(createLogger(clientId, config.LOG_LEVEL)),
    },
    logger: (name) => createLogger(name, config.LOG_LEVEL),
    createCache: () => {
      if (!redisUrl) {
        throw new Error(MISSING_REDIS);
      }
      return new RedisCacheStore(redisUrl);
    },
    stop: () => stopTracing(),
  };
}
