import {
  healthAfterAttempt,
  parseDisableAfter,
  SECRET_OVERLAP_MS,
  signingSecrets,
} from './endpoint-health.domain';

const DAY = 24 * 60 * 60 * 1000;
const t0 = new Date('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('healthAfterAttempt', () => {
  it('writes nothing while an endpoint stays healthy', () => {
    expect(healthAfterAttempt(null, true, t0, 5 * DAY)).toEqual({ kind: 'none' });
  });

  it('starts the clock at the first failure after a success, and stops it at the next success', () => {
    expect(healthAfterAttempt(null, false, t0, 5 * DAY)).toEqual({ kind: 'started_failing', at: t0 });
    expect(healthAfterAttempt(t0, true, at(4 * DAY), 5 * DAY)).toEqual({ kind: 'recovered' });
  });

  it('keeps counting while failures go on, and disables once they have lasted the whole period', () => {
    expect(healthAfterAttempt(t0, false, at(5 * DAY - 1), 5 * DAY)).toEqual({ kind: 'none' });
    expect(healthAfterAttempt(t0, false, at(5 * DAY), 5 * DAY)).toEqual({
      kind: 'disable',
      failingSince: t0,
    });
  });
});

describe('parseDisableAfter', () => {
  it.each([
    ['5d', 5 * DAY],
    ['12h', 12 * 3_600_000],
    ['30m', 1_800_000],
    ['90s', 90_000],
    ['1.5d', 1.5 * DAY],
  ])('reads %s', (text, ms) => {
    expect(parseDisableAfter(text)).toBe(ms);
  });

  it.each(['', '5', '0d', '-1d', '5w', 'five days'])('refuses %j, naming the variable', (text) => {
    expect(() => parseDisableAfter(text)).toThrow(/WEBHOOK_DISABLE_AFTER/);
  });
});

describe('signingSecrets', () => {
  it('signs with the current secret alone when none was rotated out', () => {
    expect(signingSecrets('whsec_new', null, t0)).toEqual(['whsec_new']);
  });

  it('adds the previous secret for 24 hours after a rotation, then drops it', () => {
    const previous = { secret: 'whsec_old', expiresAt: at(SECRET_OVERLAP_MS) };
    expect(SECRET_OVERLAP_MS).toBe(DAY);
    expect(signingSecrets('whsec_new', previous, at(DAY - 1))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets('whsec_new', previous, at(DAY))).toEqual(['whsec_new']);
  });
});
