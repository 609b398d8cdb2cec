import { type AccountType, type Environment, type KycStatus } from '@cts/contracts';
import { InProcessBus } from '@cts/messaging';
import {
  type CacheStore,
  createLogger,
  loadConfig,
  MemoryCacheStore,
  type ReadinessProbe,
} from '@cts/platform';
import { type RunningApp, type Runtime } from '@cts/runtime';
import { createHmac } from 'node:crypto';
import { type DestinationStream } from 'pino';
import { apiKeyDisplayPrefix, generateApiKeySecret } from '../auth/api-key-secret.domain';
import { startGateway } from '../gateway.app';
import { type GatewayTuning } from '../gateway.settings';
import { FakeAccountService } from './fake-account-service';

export const TEST_API_KEY_HASH_KEY = 'gateway-tests-api-key-hash-key';
export const TEST_ADMIN_TOKEN = 'adm_gateway-tests-admin-token-0123456789';

export interface TestGatewayOptions {
  env?: Record<string, string>;
  /** Share these between gateways to act as replicas of one deployment. */
  bus?: InProcessBus;
  cache?: CacheStore;
  accounts?: FakeAccountService;
  tuning?: GatewayTuning;
  logs?: DestinationStream;
  /** Level of the `logs` stream; default info. */
  logLevel?: string;
  /** `null`: ADMIN_TOKEN unset. */
  adminToken?: string | null;
  /** The probes services of the same process registered (the one-process mode). */
  sharedProbes?: ReadinessProbe[];
}

export interface TestGateway {
  url: string;
  /** Where `/metrics` is served (its own port, never the API's). */
  metricsUrl: string;
  bus: InProcessBus;
  cache: CacheStore;
  accounts: FakeAccountService;
  app: RunningApp['app'];
  close(): Promise<void>;
}

/** The real gateway on port 0, with a memory cache and a fake account-service on an in-process bus. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const bus = options.bus ?? new InProcessBus();
  const cache = options.cache ?? new MemoryCacheStore();
  const accounts = options.accounts ?? new FakeAccountService(bus);
  const config = loadConfig({ LOG_LEVEL: 'silent', COMMAND_TIMEOUT_MS: '2000', ...options.env });
  const runtime: Runtime = {
    mode: 'embedded',
    config,
    secrets: {
      get adminToken() {
        if (options.adminToken === null) {
          throw new Error('ADMIN_TOKEN must be set');
        }
        return options.adminToken ?? TEST_ADMIN_TOKEN;
      },
      apiKeyHashKey: TEST_API_KEY_HASH_KEY,
      custodyMasterKey: '',
      // A fixed key: the gateway seals a transfer's amount before sending it (32 bytes, base64).
      dataSealingKey: Buffer.alloc(32, 7).toString('base64'),
    },
    databaseUrl: '',
    bus,
    ...(options.sharedProbes ? { sharedProbes: options.sharedProbes } : {}),
    logger: (name) =>
      createLogger(name, options.logs ? (options.logLevel ?? 'info') : 'silent', options.logs),
    createCache: () => cache,
    stop: () => Promise.resolve(),
  };
  const running = await startGateway(runtime, {
    port: 0,
    metricsPort: 0,
    host: '127.0.0.1',
    usageFlushIntervalMs: 3_600_000,
    ...options.tuning,
  });
  return {
    url: running.url,
    metricsUrl: running.metricsUrl,
    bus,
    cache,
    accounts,
    app: running.app,
    close: () => running.close(),
  };
}

export interface SeededAccount {
  accountId: string;
  keys: Record<Environment, { keyId: string; secret: string }>;
}

/** An account with one key per environment, stored as the gateway would have it stored. */
export function seedAccount(
  accounts: FakeAccountService,
  handle = '@alice',
  options: { type?: AccountType; kyc?: KycStatus } = {},
): SeededAccount {
  const accountId = `acct_${handle.slice(1)}`;
  accounts.accounts.set(accountId, {
    account_id: accountId,
    handle,
    type: options.type ?? 'personal',
    public_key: null,
    kyc_status: options.kyc ?? 'verified',
    created_at: new Date().toISOString(),
  });
  return {
    accountId,
    keys: { test: seedKey(accounts, accountId, 'test'), live: seedKey(accounts, accountId, 'live') },
  };
}

/** One more key of `accountId`, stored as the gateway would have it stored. */
export function seedKey(
  accounts: FakeAccountService,
  accountId: string,
  environment: Environment,
): { keyId: string; secret: string } {
  const secret = generateApiKeySecret(environment);
  const hash = createHmac('sha256', TEST_API_KEY_HASH_KEY).update(secret).digest('hex');
  const stored = accounts.storeKey(accountId, {
    name: `${environment} key`,
    environment,
    key_hash: hash,
    prefix: apiKeyDisplayPrefix(secret),
  });
  return { keyId: stored.key_id, secret };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
