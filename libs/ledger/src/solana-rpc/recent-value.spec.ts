import { RecentValue } from './recent-value';

describe('RecentValue', () => {
  const counting = () => {
    let fetches = 0;
    let clock = 0;
    const recent = new RecentValue(
      () => Promise.resolve(++fetches),
      400,
      () => clock,
    );
    return { recent, advance: (ms: number) => (clock += ms), fetches: () => fetches };
  };

  it('shares one fetch between calls within its age, and fetches again after', async () => {
    const { recent, advance, fetches } = counting();
    await expect(Promise.all([recent.get(), recent.get()])).resolves.toEqual([1, 1]);
    advance(399);
    await expect(recent.get()).resolves.toBe(1);
    advance(1);
    await expect(recent.get()).resolves.toBe(2);
    expect(fetches()).toBe(2);
  });

  it('keeps no failed fetch: the next call fetches again', async () => {
    let fail = true;
    const recent = new RecentValue(
      () => (fail ? Promise.reject(new Error('unavailable')) : Promise.resolve('hash')),
      400,
      () => 0,
    );
    await expect(recent.get()).rejects.toThrow('unavailable');
    fail = false;
    await expect(recent.get()).resolves.toBe('hash');
  });
});
