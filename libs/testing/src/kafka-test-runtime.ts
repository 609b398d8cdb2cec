import { CommandBus, KafkaCommandClient, parseBrokers } from '@cts/messaging';
import { createLogger, kafkaLogCreator, loadConfig } from '@cts/platform';
import { createDistributedRuntime, type Runtime } from '@cts/runtime';
import { type ClientKafka } from '@nestjs/microservices';
import { randomBytes } from 'node:crypto';

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `${name} is not set: run integration tests through npm test or deploy/local/with-infra.mjs`,
    );
  }
  return value;
}

/** The distributed wiring against the test Kafka, with consumer groups of its own so runs never share them. */
export function kafkaTestRuntime(
  databaseUrl: string,
  clientId: string,
  groupSuffix = `-${randomBytes(4).toString('hex')}`,
  env: Record<string, string> = {},
): Runtime {
  return createDistributedRuntime(
    loadConfig({
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: requireEnv('KAFKA_BROKERS'),
      REDIS_URL: process.env.REDIS_URL,
      KAFKA_GROUP_SUFFIX: groupSuffix,
      LOG_LEVEL: 'silent',
      HEALTH_PORT: '0',
      ADMIN_TOKEN: 'adm_test_token_0123456789abcdef',
      CUSTODY_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'),
      DATA_SEALING_KEY: Buffer.alloc(32, 2).toString('base64'),
      API_KEY_HASH_KEY: Buffer.alloc(32, 3).toString('base64'),
      MIGRATE_ON_START: 'true',
      ...(process.env.CTS_PROOF_ENGINE ? { CTS_PROOF_ENGINE: process.env.CTS_PROOF_ENGINE } : {}),
      ...env,
    }),
    clientId,
  );
}

/** A request/reply client over Kafka, as the gateway has; close it with `client.close()`. */
export async function kafkaCommandBus(
  groupSuffix: string,
): Promise<{ bus: CommandBus; client: ClientKafka }> {
  const brokers = parseBrokers(requireEnv('KAFKA_BROKERS'));
  const logCreator = kafkaLogCreator(createLogger('test-client', 'silent'));
  // The gateway's reply topic, in a group of its own: it sees the gateway's replies too and ignores them.
  const client = new KafkaCommandClient(
    { brokers, clientId: 'test-client', groupSuffix, logCreator },
    'gateway',
    'test-client-replies',
  );
  await client.connect();
  return { bus: new CommandBus(client, 20_000), client };
}
