import { KeyedMutex } from './keyed-mutex';

describe('KeyedMutex', () => {
  it('serializes work per key and lets other keys run alongside', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const step = (name: string, ms: number) => async () => {
      log.push(`${name}:start`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`${name}:end`);
      return name;
    };
    const results = await Promise.all([
      mutex.run('a', step('a1', 20)),
      mutex.run('a', step('a2', 1)),
      mutex.run('b', step('b1', 1)),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a2:start')).toBeGreaterThan(log.indexOf('a1:end'));
    expect(log.indexOf('b1:end')).toBeLessThan(log.indexOf('a1:end'));
  });

  it('keeps going after a failure', async () => {
    const mutex = new KeyedMutex();
    await expect(mutex.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(mutex.run('a', () => Promise.resolve(1))).resolves.toBe(1);
  });
});
