import { fetchWaitMs, kafkaServerOptions, PARTITIONS_CONSUMED_CONCURRENTLY } from './kafka.config';

describe('kafkaServerOptions', () => {
  const options = kafkaServerOptions('webhook-dispatcher', {
    brokers: ['127.0.0.1:9092'],
    clientId: 'cts',
    groupSuffix: '-t1',
  });

  it('handles several partitions at once, each in order, like the in-process bus', () => {
    expect(PARTITIONS_CONSUMED_CONCURRENTLY).toBeGreaterThan(1);
    expect(options.run).toEqual({ partitionsConsumedConcurrently: PARTITIONS_CONSUMED_CONCURRENTLY });
  });

  it('gives each service one consumer group, suffixed for parallel test runs', () => {
    expect(options.consumer?.groupId).toBe('webhook-dispatcher-t1');
  });
});

describe('fetchWaitMs', () => {
  it('lets an empty fetch wait 3 s, never more than a fifth of the session timeout (heartbeats go between fetches)', () => {
    expect(fetchWaitMs({ brokers: [], clientId: 'cts' })).toBe(3_000);
    expect(fetchWaitMs({ brokers: [], clientId: 'cts', sessionTimeoutMs: 10_000 })).toBe(2_000);
    expect(fetchWaitMs({ brokers: [], clientId: 'cts', sessionTimeoutMs: 6_000 })).toBe(1_200);
    const options = kafkaServerOptions('account-service', { brokers: [], clientId: 'cts' });
    expect(options.consumer?.maxWaitTimeInMs).toBe(3_000);
    expect(options.consumer?.heartbeatInterval).toBeLessThanOrEqual(3_000);
  });
});
