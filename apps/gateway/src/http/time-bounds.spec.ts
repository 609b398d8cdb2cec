import { afterBound, beforeBound } from './time-bounds';

describe('time bounds of a list query', () => {
  it('are UTC with millisecond precision', () => {
    expect(afterBound('2026-11-28T03:43:06.5+01:00')).toBe('2026-11-28T02:43:06.500Z');
    expect(beforeBound('2026-11-28T03:43:06.5+01:00')).toBe('2026-11-28T02:43:06.500Z');
    expect(afterBound(undefined)).toBeUndefined();
    expect(beforeBound(undefined)).toBeUndefined();
  });

  it('round a finer bound so that it keeps the stored times the exact bound keeps', () => {
    // A time stored as …06.979Z is after …06.9785Z and before …06.9795Z.
    expect(afterBound('2026-11-28T02:43:06.9785Z')).toBe('2026-11-28T02:43:06.978Z');
    expect(beforeBound('2026-11-28T02:43:06.9795Z')).toBe('2026-11-28T02:43:06.980Z');
    expect(beforeBound('2026-11-28T02:43:06.979000Z')).toBe('2026-11-28T02:43:06.979Z');
    expect(beforeBound('2026-11-28T02:43:06.9999999Z')).toBe('2026-11-28T02:43:07.000Z');
  });
});
