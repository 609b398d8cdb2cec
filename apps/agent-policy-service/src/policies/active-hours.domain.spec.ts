import fc from 'fast-check';
import { canonicalTimeZone, isWithinActiveHours, localTime, parseActiveHours } from './active-hours.domain';

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const minute = fc.integer({ min: 0, max: 1439 });

const within = (range: string, time: string) => {
  const parsed = parseActiveHours(range);
  if (!parsed.ok) {
    throw new Error(parsed.message);
  }
  const [h, m] = time.split(':').map(Number);
  return isWithinActiveHours(parsed.value, h * 60 + m);
};

describe('parseActiveHours', () => {
  it.each([
    ['09:00-17:00', { start: 540, end: 1020 }],
    ['00:00-23:59', { start: 0, end: 1439 }],
    ['22:00-06:00', { start: 1320, end: 360 }],
    ['23:59-00:00', { start: 1439, end: 0 }],
  ])('reads %p', (text, expected) => {
    expect(parseActiveHours(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    '',
    '9:00-17:00',
    '09:00-17:0',
    '09:00 - 17:00',
    '09:00',
    '09:00-',
    '24:00-06:00',
    '09:60-10:00',
    '09:00-24:00',
    '0900-1700',
    '09:00-17:00-18:00',
    '09:00–17:00',
    '09:00-09:00',
    'aa:bb-cc:dd',
  ])('refuses %p', (text) => {
    expect(parseActiveHours(text).ok).toBe(false);
  });

  it('reads every valid distinct pair of times', () => {
    fc.assert(
      fc.property(minute, minute, (start, end) => {
        fc.pre(start !== end);
        expect(parseActiveHours(`${hhmm(start)}-${hhmm(end)}`)).toEqual({ ok: true, value: { start, end } });
      }),
    );
  });
});

describe('isWithinActiveHours', () => {
  it.each([
    ['09:00-17:00', '09:00', true],
    ['09:00-17:00', '16:59', true],
    ['09:00-17:00', '17:00', false],
    ['09:00-17:00', '08:59', false],
    ['22:00-06:00', '22:00', true],
    ['22:00-06:00', '23:59', true],
    ['22:00-06:00', '00:00', true],
    ['22:00-06:00', '05:59', true],
    ['22:00-06:00', '06:00', false],
    ['22:00-06:00', '21:59', false],
    ['22:00-06:00', '12:00', false],
  ])('%p at %p: %p', (range, time, expected) => {
    expect(within(range, time)).toBe(expected);
  });

  it('a range and its reverse split the day between them (start inclusive, end exclusive)', () => {
    fc.assert(
      fc.property(minute, minute, minute, (start, end, m) => {
        fc.pre(start !== end);
        expect(isWithinActiveHours({ start, end }, m)).toBe(
          !isWithinActiveHours({ start: end, end: start }, m),
        );
      }),
    );
  });

  it('is active for exactly the length of the range, wrapping or not', () => {
    fc.assert(
      fc.property(minute, minute, (start, end) => {
        fc.pre(start !== end);
        const active = Array.from({ length: 1440 }, (_, m) => m).filter((m) =>
          isWithinActiveHours({ start, end }, m),
        ).length;
        expect(active).toBe((end - start + 1440) % 1440);
      }),
      { numRuns: 50 },
    );
  });
});

describe('time zones', () => {
  it.each([
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['Europe/Paris', 'Europe/Paris'],
    ['europe/paris', 'Europe/Paris'],
    ['America/New_York', 'America/New_York'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
  ])('accepts %p as %p', (name, canonical) => {
    expect(canonicalTimeZone(name)).toBe(canonical);
  });

  it.each([
    '',
    'Mars/Olympus',
    'Europe/Atlantis',
    '+05:00',
    '-0300',
    'UTC+1',
    'Europe/Paris ',
    '../etc/passwd',
    'x'.repeat(65),
  ])('refuses %p', (name) => {
    expect(canonicalTimeZone(name)).toBeNull();
  });

  it.each([
    ['2026-03-10T23:30:00.000Z', 'UTC', '2026-03-10', 23 * 60 + 30],
    ['2026-03-10T23:30:00.000Z', 'Europe/Paris', '2026-03-11', 30],
    ['2026-03-11T03:30:00.000Z', 'America/New_York', '2026-03-10', 23 * 60 + 30],
    ['2026-07-01T00:15:00.000Z', 'Asia/Kolkata', '2026-07-01', 5 * 60 + 45],
    ['2026-01-01T00:00:00.000Z', 'Pacific/Kiritimati', '2026-01-01', 14 * 60],
    ['2026-01-01T00:00:00.000Z', 'Etc/GMT+12', '2025-12-31', 12 * 60],
  ])('at %s in %s it is %s, minute %p', (at, zone, day, minuteOfDay) => {
    expect(localTime(new Date(at), zone)).toEqual({ day, minuteOfDay });
  });

  it('follows daylight saving time (New York: UTC−5 in winter, UTC−4 in summer)', () => {
    expect(localTime(new Date('2026-01-15T14:00:00Z'), 'America/New_York').minuteOfDay).toBe(9 * 60);
    expect(localTime(new Date('2026-07-15T14:00:00Z'), 'America/New_York').minuteOfDay).toBe(10 * 60);
  });

  it('agrees with UTC arithmetic for UTC at any instant', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2100-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        (at) => {
          expect(localTime(at, 'UTC')).toEqual({
            day: at.toISOString().slice(0, 10),
            minuteOfDay: at.getUTCHours() * 60 + at.getUTCMinutes(),
          });
        },
      ),
    );
  });
});
