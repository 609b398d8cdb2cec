import { startOfNextUtcDay, startOfUtcDay, timeLeft } from './format';

describe('timeLeft', () => {
  const now = Date.parse('2026-01-10T12:00:00.000Z');
  const inMinutes = (minutes: number) => new Date(now + minutes * 60_000).toISOString();

  it('says how long an approval window stays open, coarsely', () => {
    expect(timeLeft(inMinutes(0.5), now)).toBe('under a minute left');
    expect(timeLeft(inMinutes(42), now)).toBe('42 min left');
    expect(timeLeft(inMinutes(65), now)).toBe('1 h 5 min left');
    expect(timeLeft(inMinutes(120), now)).toBe('2 h left');
    expect(timeLeft(inMinutes(60 * 24 * 7), now)).toBe('7 d left');
  });

  it('is undefined once the deadline has passed, or for an unreadable date', () => {
    expect(timeLeft(inMinutes(0), now)).toBeUndefined();
    expect(timeLeft(inMinutes(-5), now)).toBeUndefined();
    expect(timeLeft('not a date', now)).toBeUndefined();
  });
});

describe('UTC day filters', () => {
  it('turns a picked day into the instants the transfers list filters on, the day included', () => {
    expect(startOfUtcDay('2026-02-28')).toBe('2026-02-28T00:00:00.000Z');
    expect(startOfNextUtcDay('2026-02-28')).toBe('2026-03-01T00:00:00.000Z');
    expect(startOfNextUtcDay('2026-12-31')).toBe('2027-01-01T00:00:00.000Z');
  });
});
