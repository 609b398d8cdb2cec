import {
  type DynamicModule,
  type INestApplication,
  type INestApplicationContext,
  Module,
  type Type,
} from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { type CustomTransportStrategy, type Server } from '@nestjs/microservices';
import { TerminusModule } from '@nestjs/terminus';
import { allTopicSpecs } from '@cts/contracts';
import {
  COMMAND_CLIENT,
  COMMAND_TIMEOUT_MS,
  CommandBus,
  DeadLetters,
  groupIdFor,
  HandlerRegistrar,
  InProcessPublisher,
  InProcessServer,
  KafkaBatchServer,
  KafkaPublisher,
  kafkaServerOptions,
  MessagePublisher,
  provisionTopics,
} from '@cts/messaging';
import {
  HealthController,
  MetricsController,
  READINESS_PROBES,
  type ReadinessProbe,
  inServiceScope,
  PinoNestLogger,
} from '@cts/platform';
import {
  createServiceDataSource,
  OutboxRelay,
  runMigrations,
  UnitOfWork,
  type ServiceDataSourceOptions,
} from '@cts/persistence';
import { type Logger } from 'pino';
import { DataSource } from 'typeorm';
import { InternalQueryController } from './internal-query.controller';
import { sampleConsumerLag } from './consumer-lag';
import { type CommandTransport, connectCommandTransport } from './command-transport';
import { type Runtime } from './runtime';
import { RUNTIME, SERVICE_NAME } from './runtime.tokens';

/** What makes a service: its name (consumer group), its schema, and its feature modules. */
export interface ServiceDefinition {
  name: string;
  schema: string;
  entities: ServiceDataSourceOptions['entities'];
  migrations: ServiceDataSourceOptions['migrations'];
  imports: (Type | DynamicModule)[];
  /** A service that asks other services (CommandBus) gets a command client and its reply consumer. */
  sendsCommands?: boolean;
  /** Database connections (default 10): more for a service that holds some for long (webhook attempts). */
  poolSize?: number;
  /**
   * Distributed mode: while messages flow, the broker holds each fetch this long and hands over
   * everything that arrived meanwhile (one batch), instead of answering at the first message; after
   * a fetch that brought nothing, the next answers at the first message again. For a consumer whose
   * work per batch costs more than this latency is worth (webhook ingestion: one statement per
   * batch); its commands wait as long while it is busy. Default 0: never.
   */
  fetchLingerMs?: number;
  /** What else must answer before the service takes work (transfer-service: its ledger). Cheap: polled. */
  readiness?: (app: INestApplicationContext) => ReadinessProbe[];
}

export interface RunningApp {
  name: string;
  app: INestApplication;
  close(): Promise<void>;
}

@Module({})
class ServiceRootModule {}

export function dataSourceFor(definition: ServiceDefinition, url: string): DataSource {
  const { schema, entities, migrations, poolSize } = definition;
  return createServiceDataSource({ schema, url, entities, migrations, poolSize });
}

/**
 * Starts one service on either transport: the in-process bus (one-process mode) or Kafka, with its
 * own DataSource, outbox relay and dead-letter publisher. In the distributed mode it also serves
 * `/healthz` and `/readyz` on HEALTH_PORT.
 */
export function startService(definition: ServiceDefinition, runtime: Runtime): Promise<RunningApp> {
  const logger = runtime.logger(definition.name);
  return startAsService(runtime, logger, () => startInScope(definition, runtime, logger));
}

/**
 * Starts an app (a service, the gateway) as its own service. One process, several services: whatever
 * it starts runs as it, so its log lines carry its name. Alone in its process it needs no scope (and
 * its promises skip the scope's bookkeeping).
 */
export function startAsService<T>(runtime: Runtime, logger: Logger, start: () => T): T {
  return runtime.mode === 'embedded' ? inServiceScope(logger, start) : start();
}

async function startInScope(
  definition: ServiceDefinition,
  runtime: Runtime,
  logger: Logger,
): Promise<RunningApp> {
  const { config } = runtime;
  if (!runtime.databaseUrl) {
    throw new Error(`${definition.name} needs DATABASE_URL`);
  }
  const dataSource = dataSourceFor(definition, runtime.databaseUrl);
  await dataSource.initialize();
  if (runtime.mode === 'embedded' || config.MIGRATE_ON_START) {
    await runMigrations(dataSource, definition.schema);
  }
  if (runtime.kafka && config.KAFKA_PROVISION_TOPICS) {
    await provisionTopics(runtime.kafka, allTopicSpecs());
  }
  const publisher: MessagePublisher = runtime.bus
    ? new InProcessPublisher(runtime.bus)
    : new KafkaPublisher(requireKafka(runtime));
  const server = (runtime.bus
    ? new InProcessServer(runtime.bus, definition.name)
    : new KafkaBatchServer(
        kafkaServerOptions(definition.name, requireKafka(runtime), {
          fetchLingerMs: definition.fetchLingerMs,
        }),
        { internalToken: config.INTERNAL_TOKEN },
      )) as unknown as Server & CustomTransportStrategy;
  let transportStatus = runtime.bus ? 'connected' : 'disconnected';
  server.status.subscribe((status) => (transportStatus = String(status)));

  const relay = new OutboxRelay(dataSource, publisher, { schema: definition.schema });
  const unitOfWork = new UnitOfWork(dataSource, definition.schema);
  unitOfWork.onEventsCommitted(() => relay.kick());
  const probes: ReadinessProbe[] = [
    { name: 'broker', check: () => Promise.resolve(transportStatus === 'connected') },
  ];
  const commands: CommandTransport | null = definition.sendsCommands
    ? await connectCommandTransport(runtime, definition.name)
    : null;
  const commandProviders = commands
    ? [
        { provide: COMMAND_CLIENT, useValue: commands.client },
        { provide: COMMAND_TIMEOUT_MS, useValue: config.COMMAND_TIMEOUT_MS },
        CommandBus,
      ]
    : [];

  const root: DynamicModule = {
    module: ServiceRootModule,
    global: true,
    imports: [DiscoveryModule, TerminusModule, ...definition.imports],
    controllers:
      runtime.mode === 'distributed' ? [HealthController, MetricsController, InternalQueryController] : [],
    providers: [
      { provide: RUNTIME, useValue: runtime },
      { provide: SERVICE_NAME, useValue: definition.name },
      { provide: DataSource, useValue: dataSource },
      { provide: UnitOfWork, useValue: unitOfWork },
      { provide: MessagePublisher, useValue: publisher },
      { provide: OutboxRelay, useValue: relay },
      { provide: READINESS_PROBES, useValue: probes },
      DeadLetters,
      HandlerRegistrar,
      ...commandProviders,
    ],
    exports: [
      RUNTIME,
      SERVICE_NAME,
      DataSource,
      UnitOfWork,
      MessagePublisher,
      OutboxRelay,
      DeadLetters,
      ...(commands ? [CommandBus] : []),
    ],
  };
  const app = await NestFactory.create(root, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  const ownProbes = definition.readiness?.(app) ?? [];
  probes.push(...ownProbes);
  // The one-process gateway answers /readyz for every service of the process: it checks these too.
  const shared: ReadinessProbe[] = [
    { name: 'database', check: async () => (await dataSource.query('SELECT 1')) !== undefined },
    ...ownProbes,
  ];
  runtime.sharedProbes?.push(...shared);
  app.connectMicroservice({ strategy: server });
  app.get(HandlerRegistrar).registerOn(server, definition.name);
  await app.startAllMicroservices();
  relay.start();
  const stopLagSampling = runtime.kafka
    ? sampleConsumerLag(runtime.kafka, groupIdFor(definition.name, runtime.kafka))
    : null;
  if (runtime.mode === 'distributed') {
    await app.listen(config.HEALTH_PORT, '0.0.0.0');
  } else {
    await app.init();
  }

  return {
    name: definition.name,
    app,
    // Stop taking work first, then flush the outbox, then release connections.
    async close() {
      const registered = runtime.sharedProbes ?? [];
      for (const probe of shared) {
        const at = registered.indexOf(probe);
        if (at >= 0) {
          registered.splice(at, 1);
        }
      }
      await stopLagSampling?.();
      // The transport first: the consumer leaves its group once in-flight handlers finish and their
      // offsets are committed. Only then do modules tear down what those handlers use (ledger, pool).
      await server.close();
      await app.close();
      await commands?.close();
      await relay.stop();
      await publisher.close();
      await dataSource.destroy();
    },
  };
}

function requireKafka(runtime: Runtime) {
  if (!runtime.kafka) {
    throw new Error('Kafka settings are missing');
  }
  return runtime.kafka;
}
