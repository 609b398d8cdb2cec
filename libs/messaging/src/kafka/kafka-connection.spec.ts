import { loadConfig } from '@cts/platform';
import { createKafka, kafkaConnectionOf, kafkajsConnectionConfig, parseBrokers } from './kafka-connection';
import { kafkaClientOptions, kafkaServerOptions } from './kafka.config';

const secured = loadConfig({
  KAFKA_BROKERS: 'kafka-0:9093, kafka-1:9093',
  KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
  KAFKA_SASL_USERNAME: 'cts',
  KAFKA_SASL_PASSWORD: 's3cret-pw',
  KAFKA_SSL: 'true',
});

describe('kafka connection settings', () => {
  it('splits the broker list and drops blanks', () => {
    expect(parseBrokers(' a:9092,, b:9092 ')).toEqual(['a:9092', 'b:9092']);
  });

  it('gives kafkajs brokers only, without SASL or TLS, when none is configured', () => {
    const connection = kafkaConnectionOf(loadConfig({ KAFKA_BROKERS: '127.0.0.1:9092' }));
    expect(kafkajsConnectionConfig(connection)).toEqual({ brokers: ['127.0.0.1:9092'] });
  });

  it('maps KAFKA_SASL_* and KAFKA_SSL to kafkajs sasl and ssl options', () => {
    expect(kafkajsConnectionConfig(kafkaConnectionOf(secured))).toEqual({
      brokers: ['kafka-0:9093', 'kafka-1:9093'],
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'cts', password: 's3cret-pw' },
    });
  });

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)('passes the %s mechanism on', (mechanism) => {
    const config = loadConfig({
      KAFKA_BROKERS: 'k:9092',
      KAFKA_SASL_MECHANISM: mechanism,
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: 'p',
    });
    expect(kafkajsConnectionConfig(kafkaConnectionOf(config))).toEqual({
      brokers: ['k:9092'],
      sasl: { mechanism, username: 'u', password: 'p' },
    });
  });

  it('gives TLS alone when only KAFKA_SSL is set', () => {
    const config = loadConfig({ KAFKA_BROKERS: 'k:9093', KAFKA_SSL: '1' });
    expect(kafkajsConnectionConfig(kafkaConnectionOf(config))).toEqual({ brokers: ['k:9093'], ssl: true });
  });

  it("configures every Kafka client of the apps with them: the services' servers and the command clients", () => {
    const settings = { ...kafkaConnectionOf(secured), clientId: 'transfer-service' };
    for (const options of [kafkaServerOptions('transfer-service', settings), kafkaClientOptions(settings)]) {
      expect(options.client).toMatchObject({
        brokers: ['kafka-0:9093', 'kafka-1:9093'],
        ssl: true,
        sasl: { mechanism: 'scram-sha-512', username: 'cts', password: 's3cret-pw' },
      });
    }
  });

  it('builds kafkajs clients (publisher, provisioner, lag sampler) from the same settings', () => {
    expect(() => createKafka(kafkaConnectionOf(secured), 'cts-test').admin()).not.toThrow();
  });
});
