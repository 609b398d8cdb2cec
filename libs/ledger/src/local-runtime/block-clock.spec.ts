import { BLOCKHASH_VALIDITY_SLOTS, BlockClock, SLOT_MS } from './block-clock';

describe('BlockClock', () => {
  it('produces a new random blockhash every slot and keeps the last 150 valid', () => {
    let now = 0;
    const clock = new BlockClock(100n, () => now);
    const first = clock.current();
    expect(first).toMatchObject({ slot: 100n, lastValidBlockHeight: 100n + BLOCKHASH_VALIDITY_SLOTS });
    expect(clock.current().blockhash).toBe(first.blockhash);

    now += SLOT_MS;
    const second = clock.current();
    expect(second.slot).toBe(101n);
    expect(second.blockhash).not.toBe(first.blockhash);
    expect(clock.isValid(first.blockhash)).toBe(true);

    now += SLOT_MS * Number(BLOCKHASH_VALIDITY_SLOTS);
    expect(clock.isValid(first.blockhash)).toBe(false);
    expect(clock.isValid(clock.current().blockhash)).toBe(true);
    expect(clock.isValid('unknown')).toBe(false);
  });

  it('never repeats blockhashes across instances (restarts)', () => {
    expect(new BlockClock(1n).current().blockhash).not.toBe(new BlockClock(1n).current().blockhash);
  });
});
