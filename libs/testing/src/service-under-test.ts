import { type CommandBus, type InProcessBus } from '@cts/messaging';
import { type RunningApp, type Runtime } from '@cts/runtime';
import { DataSource } from 'typeorm';
import { inProcessCommandBus, inProcessTestRuntime } from './test-runtime';
import { type TestDatabase } from './test-database';

/** An event as an observer on an event topic receives it. */
export interface PublishedEvent<P = Record<string, unknown>> {
  type: string;
  payload: P;
}

export interface ServiceUnderTestOptions<Peers> {
  /** Environment on top of the test defaults (`loadConfig` reads it). */
  env?: Record<string, string>;
  /** Event topics to record, in arrival order, into `published`. */
  observe?: string[];
  /** Fakes of the services this one calls, registered on its bus before it starts. */
  peers?: (bus: InProcessBus) => Peers;
}

/** One service on the in-process test runtime: its bus, its commands, its database, what it published. */
export interface ServiceUnderTest<Peers = undefined> {
  runtime: Runtime & { bus: InProcessBus };
  service: RunningApp;
  /** The raw bus: publish events to the service, register more fakes. */
  bus: InProcessBus;
  /** Commands to the service, as its peers send them. */
  commands: CommandBus;
  dataSource: DataSource;
  published: PublishedEvent[];
  peers: Peers;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * The skeleton every service's integration harness starts from: a real PostgreSQL database (one per
 * suite, several replicas may share it), the one-process wiring with the service's own bus, fake peers
 * on that bus, and an observer on the event topics it publishes.
 */
export async function startServiceUnderTest<Peers = undefined>(
  db: TestDatabase,
  start: (runtime: Runtime & { bus: InProcessBus }) => Promise<RunningApp>,
  options: ServiceUnderTestOptions<Peers> = {},
): Promise<ServiceUnderTest<Peers>> {
  const runtime = inProcessTestRuntime(db.url, options.env);
  const peers = options.peers ? options.peers(runtime.bus) : (undefined as Peers);
  const published: PublishedEvent[] = [];
  for (const topic of options.observe ?? []) {
    runtime.bus.subscribe(topic, 'test-observer', (data) => {
      published.push(data as PublishedEvent);
      return Promise.resolve();
    });
  }
  const service = await start(runtime);
  const dataSource = service.app.get(DataSource);
  return {
    runtime,
    service,
    bus: runtime.bus,
    commands: inProcessCommandBus(runtime.bus),
    dataSource,
    published,
    peers,
    query: <T>(sql: string, params: unknown[] = []) => dataSource.query<T[]>(sql, params),
    close: () => service.close(),
  };
}
