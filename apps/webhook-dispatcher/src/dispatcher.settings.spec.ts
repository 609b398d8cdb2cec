import { loadConfig } from '@cts/platform';
import { dispatcherSettings, maxInFlightPerEndpoint } from './dispatcher.settings';

describe('WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT', () => {
  it('defaults to 2 attempts in flight per endpoint', () => {
    expect(maxInFlightPerEndpoint({})).toBe(2);
    expect(maxInFlightPerEndpoint({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '' })).toBe(2);
  });

  it('reads a positive integer from the environment', () => {
    expect(maxInFlightPerEndpoint({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: ' 8 ' })).toBe(8);
    expect(
      dispatcherSettings(loadConfig({}), {}, { WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '5' })
        .maxInFlightPerEndpoint,
    ).toBe(5);
  });

  it('lets a test option win over the environment', () => {
    expect(
      dispatcherSettings(
        loadConfig({}),
        { maxInFlightPerEndpoint: 3 },
        { WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '5' },
      ).maxInFlightPerEndpoint,
    ).toBe(3);
  });

  it.each(['0', '-1', '1.5', 'two', '1e3'])(
    'stops the service at start on %p, naming the setting',
    (value) => {
      expect(() => maxInFlightPerEndpoint({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: value })).toThrow(
        /WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT/,
      );
    },
  );
});
