import { InProcessBus } from './in-process-bus';

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
