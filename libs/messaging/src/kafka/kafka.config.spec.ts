import { kafkaServerOptions, PARTITIONS_CONSUMED_CONCURRENTLY } from './kafka.config';

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
