import { eventually } from '@cts/testing';
import { type Consumer, Kafka, logLevel } from 'kafkajs';
import { BATCH_HANDLER_EXTRAS } from '../handlers/event-batch';
import { COMMIT_INTERVAL_MS, KafkaBatchServer } from './kafka-batch.server';
import { groupIdFor, kafkaServerOptions } from './kafka.config';
import { parseBrokers } from './kafka-connection';
import { provisionTopics } from './topic-provisioner';

describe('batch consumers on a real broker (KafkaBatchServer)', () => {
  const brokers = parseBrokers(process.env.KAFKA_BROKERS ?? '');
  const kafka = new Kafka({ brokers, clientId: 'batch-test', logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  const admin = kafka.admin();
  let servers: KafkaBatchServer[] = [];
  let run = 0;

  beforeAll(async () => {
    await producer.connect();
    await admin.connect();
  });

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });

  afterAll(async () => {
    await producer.disconnect();
    await admin.disconnect();
  });

  /** Fresh topics (one partition each, so one run is one partition's order) and a fresh group. */
  async function topics() {
    run += 1;
    const suffix = `${Date.now().toString(36)}-${run}`;
    const names = { batched: `batch-${suffix}.events`, single: `single-${suffix}.events` };
    await provisionTopics({ brokers }, [
      { name: names.batched, partitions: 1, retentionMs: 3_600_000 },
      { name: names.single, partitions: 1, retentionMs: 3_600_000 },
    ]);
    return { ...names, settings: { brokers, clientId: 'batch-test', groupSuffix: `-${suffix}` } };
  }

  const produce = (topic: string, values: number[]) =>
    producer.send({
      topic,
      messages: values.map((value) => ({ key: 'k', value: JSON.stringify({ value }) })),
    });

  const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

  async function committed(group: string, topic: string): Promise<string | undefined> {
    const [offsets] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    return offsets?.partitions[0]?.offset;
  }

  async function startServer(
    service: string,
    settings: Awaited<ReturnType<typeof topics>>['settings'],
    handlers: Record<
      string,
      { batch: (data: unknown[]) => Promise<void> } | { single: (data: unknown) => Promise<void> }
    >,
  ): Promise<KafkaBatchServer> {
    const server = new KafkaBatchServer(kafkaServerOptions(service, settings));
    for (const [topic, handler] of Object.entries(handlers)) {
      if ('batch' in handler) {
        server.addHandler(
          topic,
          (data: unknown) => handler.batch(data as unknown[]),
          true,
          BATCH_HANDLER_EXTRAS,
        );
      } else {
        server.addHandler(topic, (data: unknown) => handler.single(data), true);
      }
    }
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      void server.listen((error?: unknown) => (error ? reject(error as Error) : resolve()));
    });
    return server;
  }

  const valuesOf = (data: unknown[]) => data.map((d) => (d as { value: number }).value);

  it('hands a batch handler a run of messages in order, and commits its offsets once it resolved', async () => {
    const { batched, single, settings } = await topics();
    await produce(batched, range(0, 50));
    await produce(single, range(0, 5));
    const calls: number[][] = [];
    const singles: number[] = [];
    await startServer('batching', settings, {
      [batched]: { batch: (data) => Promise.resolve(void calls.push(valuesOf(data))) },
      [single]: { single: (data) => Promise.resolve(void singles.push((data as { value: number }).value)) },
    });

    await eventually(() => expect(calls.flat()).toHaveLength(50), 30_000);
    expect(calls.flat()).toEqual(range(0, 50));
    // What one fetch brought comes in one call: far fewer calls than messages.
    expect(calls.length).toBeLessThan(10);
    await eventually(() => expect(singles).toEqual(range(0, 5)), 30_000);
    await eventually(
      async () => expect(await committed(groupIdFor('batching', settings), batched)).toBe('50'),
      15_000,
    );
  }, 90_000);

  it('commits nothing of a batch its handler failed, and hands it over again: nothing lost', async () => {
    const { batched, single, settings } = await topics();
    await produce(batched, range(0, 20));
    const group = groupIdFor('failing', settings);
    const calls: number[][] = [];
    let failures = 2;
    const uncommittedWhileFailing: (string | undefined)[] = [];
    await startServer('failing', settings, {
      [batched]: {
        batch: async (data) => {
          calls.push(valuesOf(data));
          if (failures > 0) {
            failures -= 1;
            uncommittedWhileFailing.push(await committed(group, batched));
            throw new Error('the database is unavailable');
          }
        },
      },
      [single]: { single: () => Promise.resolve() },
    });

    await eventually(() => expect(failures).toBe(0), 30_000);
    await eventually(async () => expect(await committed(group, batched)).toBe('20'), 30_000);
    // Before the batch was stored its offsets were not committed (-1: nothing yet).
    expect(uncommittedWhileFailing).toEqual(['-1', '-1']);
    // Each failed run came again from its first message; the last call stored it.
    expect(calls[0]?.[0]).toBe(0);
    expect(calls[1]?.[0]).toBe(0);
    expect(new Set(calls.slice(2).flat())).toEqual(new Set(range(0, 20)));
  }, 90_000);

  it('commits what was handled at most once per interval, not per message, and all of it on close', async () => {
    const { batched, single, settings } = await topics();
    const group = groupIdFor('committing', settings);
    const handled: number[] = [];
    const server = await startServer('committing', settings, {
      [batched]: { batch: () => Promise.resolve() },
      [single]: { single: (data) => Promise.resolve(void handled.push((data as { value: number }).value)) },
    });
    const [, consumer] = server.unwrap<[unknown, Consumer]>();
    let commits = 0;
    consumer.on(consumer.events.COMMIT_OFFSETS, () => (commits += 1));

    // 20 messages, one fetch each, over about a second and a half (longer on a busy machine).
    const started = Date.now();
    for (const value of range(0, 20)) {
      await produce(single, [value]);
      await new Promise((resolve) => setTimeout(resolve, 75));
    }
    await eventually(() => expect(handled).toEqual(range(0, 20)), 30_000);
    await eventually(async () => expect(await committed(group, single)).toBe('20'), 15_000);
    // One commit per interval at most, whatever the number of fetches (one per message here).
    const intervals = Math.ceil((Date.now() - started) / COMMIT_INTERVAL_MS);
    expect(commits).toBeGreaterThan(0);
    expect(commits).toBeLessThanOrEqual(intervals + 1);
    expect(commits).toBeLessThan(handled.length);

    await produce(single, [20, 21]);
    await eventually(() => expect(handled).toHaveLength(22), 30_000);
    await server.close();
    servers = servers.filter((s) => s !== server);
    expect(await committed(group, single)).toBe('22');
  }, 90_000);

  it('redelivers to another member what a stopped one had not stored', async () => {
    const { batched, single, settings } = await topics();
    await produce(batched, range(0, 10));
    const group = groupIdFor('handover', settings);
    const first = await startServer('handover', settings, {
      [batched]: { batch: () => Promise.reject(new Error('never stored')) },
      [single]: { single: () => Promise.resolve() },
    });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await first.close();
    servers = servers.filter((server) => server !== first);
    expect(await committed(group, batched)).toBe('-1');

    const stored: number[] = [];
    await startServer('handover', settings, {
      [batched]: { batch: (data) => Promise.resolve(void stored.push(...valuesOf(data))) },
      [single]: { single: () => Promise.resolve() },
    });
    await eventually(() => expect(stored).toEqual(range(0, 10)), 30_000);
  }, 90_000);

  it('reports connected again once its group settled after a member joined and left (readiness)', async () => {
    const { batched, single, settings } = await topics();
    const handlers = {
      [batched]: { batch: () => Promise.resolve() },
      [single]: { single: () => Promise.resolve() },
    };
    const first = await startServer('membership', settings, handlers);
    const statuses: string[] = [];
    first.status.subscribe((status) => statuses.push(String(status)));
    await eventually(() => expect(statuses.at(-1)).toBe('connected'), 30_000);

    const second = await startServer('membership', settings, handlers);
    await eventually(() => expect(statuses).toContain('rebalancing'), 30_000);
    await eventually(() => expect(statuses.at(-1)).toBe('connected'), 30_000);
    // Counted before the close: the first member may see the leave while close() still waits.
    const rebalances = statuses.filter((status) => status === 'rebalancing').length;
    await second.close();
    servers = servers.filter((server) => server !== second);

    await eventually(
      () => expect(statuses.filter((s) => s === 'rebalancing').length).toBeGreaterThan(rebalances),
      60_000,
    );
    await eventually(() => expect(statuses.at(-1)).toBe('connected'), 30_000);
  }, 180_000);
});
