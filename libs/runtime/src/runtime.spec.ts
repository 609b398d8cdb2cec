import { loadConfig } from '@cts/platform';
import { createDistributedRuntime, MISSING_REDIS } from './runtime';

const secrets = {
  ADMIN_TOKEN: 'adm_test_token_0123456789abcdef',
  CUSTODY_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'),
  DATA_SEALING_KEY: Buffer.alloc(32, 2).toString('base64'),
  API_KEY_HASH_KEY: Buffer.alloc(32, 3).toString('base64'),
};

describe('the distributed runtime', () => {
  it('refuses a memory cache without REDIS_URL, saying why', () => {
    const runtime = createDistributedRuntime(
      loadConfig({ KAFKA_BROKERS: '127.0.0.1:9', LOG_LEVEL: 'silent', ...secrets }),
      'gateway',
    );
    expect(() => runtime.createCache()).toThrow(MISSING_REDIS);
    expect(MISSING_REDIS).toMatch(/^REDIS_URL is not set/);
  });
});
