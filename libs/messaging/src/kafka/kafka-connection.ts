import { type AppConfig } from '@cts/platform';
import { Kafka, type KafkaConfig, type logCreator, logLevel, type SASLOptions } from 'kafkajs';

export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** How to reach the brokers: addresses, and the credentials and TLS a secured cluster asks for. */
export interface KafkaConnection {
  brokers: string[];
  /** TLS with the system's CAs (a private CA: NODE_EXTRA_CA_CERTS). */
  ssl?: boolean;
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

export function parseBrokers(value: string): string[] {
  return value
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
}

type SecurityConfig = Pick<
  AppConfig,
  'KAFKA_BROKERS' | 'KAFKA_SSL' | 'KAFKA_SASL_MECHANISM' | 'KAFKA_SASL_USERNAME' | 'KAFKA_SASL_PASSWORD'
>;

/**
 * The brokers and their security from the validated configuration (AppConfig checks that the
 * mechanism is known and the two credentials come together).
 */
export function kafkaConnectionOf(config: SecurityConfig): KafkaConnection {
  const {
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: username,
    KAFKA_SASL_PASSWORD: password,
  } = config;
  return {
    brokers: parseBrokers(config.KAFKA_BROKERS ?? ''),
    ssl: config.KAFKA_SSL,
    ...(mechanism && username && password ? { sasl: { mechanism, username, password } } : {}),
  };
}

/**
 * The one place kafkajs gets brokers, SASL and TLS: every Kafka client of the apps and tools (Nest's
 * servers and clients, the publisher, the topic provisioner, the lag sampler) is configured by it.
 */
export function kafkajsConnectionConfig(
  connection: KafkaConnection,
): Pick<KafkaConfig, 'brokers' | 'ssl' | 'sasl'> {
  return {
    brokers: connection.brokers,
    ...(connection.ssl ? { ssl: true } : {}),
    ...(connection.sasl ? { sasl: saslOptions(connection.sasl) } : {}),
  };
}

function saslOptions({ mechanism, username, password }: NonNullable<KafkaConnection['sasl']>): SASLOptions {
  // One literal per mechanism: kafkajs types each as its own union member.
  switch (mechanism) {
    case 'plain':
      return { mechanism, username, password };
    case 'scram-sha-256':
      return { mechanism, username, password };
    case 'scram-sha-512':
      return { mechanism, username, password };
  }
}

/** A kafkajs client on `connection` (admin, producer or consumer), logging through `logCreator` if given. */
export function createKafka(
  connection: KafkaConnection,
  clientId: string,
  options: { logLevel?: logLevel; logCreator?: logCreator } = {},
): Kafka {
  return new Kafka({
    ...kafkajsConnectionConfig(connection),
    clientId,
    logLevel: options.logLevel ?? logLevel.WARN,
    ...(options.logCreator ? { logCreator: options.logCreator } : {}),
  });
}
