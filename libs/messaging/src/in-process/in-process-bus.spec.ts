import { IN_PROCESS_MAX_BATCH, InProcessBus } from './in-process-bus';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('InProcessBus partitions', () => {
  it('keeps the messages of one key in order, one at a time', async () => {
    const bus = new InProcessBus();
    const handled: string[] = [];
    let running = 0;
    let maxRunning = 0;
    bus.subscribe('t', 'g', async (data) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      handled.push(String(data));
      running--;
    });

    for (let i = 0; i < 5; i++) bus.publish('t', JSON.stringify(i), 'same-key');
    await bus.drain();

    expect(handled).toEqual(['0', '1', '2', '3', '4']);
    expect(maxRunning).toBe(1);
  });

  it('keeps messages without a key in publication order', async () => {
    const bus = new InProcessBus();
    const handled: number[] = [];
    bus.subscribe('t', 'g', async (data) => {
      await new Promise((resolve) => setTimeout(resolve, 10 - Number(data)));
      handled.push(Number(data));
    });

    for (let i = 0; i < 5; i++) bus.publish('t', JSON.stringify(i));
    await bus.drain();

    expect(handled).toEqual([0, 1, 2, 3, 4]);
  });

  it('does not hold other keys behind a slow message', async () => {
    const bus = new InProcessBus();
    const slow = deferred();
    const handled: string[] = [];
    bus.subscribe('t', 'g', async (data) => {
      if (data === 'slow') await slow.promise;
      handled.push(String(data));
    });

    bus.publish('t', JSON.stringify('slow'), 'key-0');
    for (let i = 1; i < 20; i++) bus.publish('t', JSON.stringify(`k${i}`), `key-${i}`);
    await new Promise((resolve) => setTimeout(resolve, 20));

    // Some of the other keys share the slow one's partition and wait; the rest went through.
    expect(handled.length).toBeGreaterThan(0);
    expect(handled).not.toContain('slow');
    slow.resolve();
    await bus.drain();
    expect(handled).toHaveLength(20);
  });
});

describe('InProcessBus requests', () => {
  const envelope = (type: string) => ({ type, payload: {} });

  it('answers a command on its service topic by the handler of the topic, or of its type alone', async () => {
    const bus = new InProcessBus();
    bus.registerCommand('account.commands', (data) =>
      Promise.resolve({ by: 'topic', type: (data as { type: string }).type }),
    );
    bus.registerCommand('account.get', () => Promise.resolve({ by: 'type' }));
    expect(await bus.request('account.commands', envelope('account.set-kyc'))).toEqual({
      by: 'topic',
      type: 'account.set-kyc',
    });
    expect(await bus.request('account.commands', envelope('account.get'))).toEqual({ by: 'type' });
    expect(await bus.request('account.create', envelope('account.create'))).toEqual({
      by: 'topic',
      type: 'account.create',
    });
    await expect(bus.request('transfer.commands', envelope('transfer.get'))).rejects.toThrow(
      'No handler is registered for transfer.commands',
    );
  });
});

describe('InProcessBus batch consumers', () => {
  it('hands a batch consumer what arrived while its previous batch ran, in order per partition', async () => {
    const bus = new InProcessBus();
    const batches: number[][] = [];
    const first = deferred();
    bus.subscribeBatch('t', 'g', async (data) => {
      batches.push(data as number[]);
      if (batches.length === 1) {
        await first.promise;
      }
    });

    bus.publish('t', JSON.stringify(0), 'same-key');
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 1; i <= 5; i++) bus.publish('t', JSON.stringify(i), 'same-key');
    first.resolve();
    await bus.drain();

    expect(batches).toEqual([[0], [1, 2, 3, 4, 5]]);
  });

  it('takes at most IN_PROCESS_MAX_BATCH messages per call', async () => {
    const bus = new InProcessBus();
    const sizes: number[] = [];
    bus.subscribeBatch('t', 'g', (data) => {
      sizes.push(data.length);
      return Promise.resolve();
    });

    for (let i = 0; i < IN_PROCESS_MAX_BATCH + 3; i++) bus.publish('t', JSON.stringify(i), 'k');
    await bus.drain();

    expect(sizes).toEqual([IN_PROCESS_MAX_BATCH, 3]);
  });

  it('retries a failing batch whole, then alone each message, dead-lettering only the one that keeps failing', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const bus = new InProcessBus();
      const calls: string[][] = [];
      const stored: string[] = [];
      bus.subscribeBatch('t', 'g', (data) => {
        const values = data as string[];
        calls.push(values);
        if (values.includes('poison')) {
          return Promise.reject(new Error('cannot store poison'));
        }
        stored.push(...values);
        return Promise.resolve();
      });

      for (const value of ['a', 'poison', 'b']) bus.publish('t', JSON.stringify(value), 'k');
      const drained = bus.drain();
      await jest.runAllTimersAsync();
      await drained;

      // The batch: once and four retries, then each message on its own (the poison one with its retries).
      expect(calls.slice(0, 5)).toEqual(Array(5).fill(['a', 'poison', 'b']));
      expect(stored).toEqual(['a', 'b']);
      expect(bus.deadLetters).toHaveLength(1);
      expect(JSON.parse(bus.deadLetters[0]?.value ?? '{}')).toMatchObject({
        consumer: 'g',
        topic: 't',
        original: JSON.stringify('poison'),
      });
    } finally {
      jest.useRealTimers();
    }
  });
});
