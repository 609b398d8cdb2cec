import { loadConfig } from '@cts/platform';
import { dispatcherSettings } from './dispatcher.settings';

describe('WEBHOOK_TIMEOUT_MS', () => {
  it('defaults below COMMAND_TIMEOUT_MS: a DELETE waiting for an attempt in flight still answers in time', () => {
    const config = loadConfig({});

    expect(dispatcherSettings(config).timeoutMs).toBe(10_000);
    expect(config.COMMAND_TIMEOUT_MS - dispatcherSettings(config).timeoutMs).toBeGreaterThanOrEqual(5_000);
  });
});

describe('WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT', () => {
  it('defaults to 2 attempts in flight per endpoint', () => {
    expect(dispatcherSettings(loadConfig({})).maxInFlightPerEndpoint).toBe(2);
  });

  it('is read from configuration (AppConfig), never from the environment behind its back', () => {
    expect(
      dispatcherSettings(loadConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: ' 8 ' })).maxInFlightPerEndpoint,
    ).toBe(8);
    const before = process.env.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT;
    process.env.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = '5';
    try {
      expect(dispatcherSettings(loadConfig({})).maxInFlightPerEndpoint).toBe(2);
    } finally {
      if (before === undefined) {
        delete process.env.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT;
      } else {
        process.env.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = before;
      }
    }
  });

  it('lets a test option win over configuration', () => {
    expect(
      dispatcherSettings(loadConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '5' }), {
        maxInFlightPerEndpoint: 3,
      }).maxInFlightPerEndpoint,
    ).toBe(3);
  });

  it.each(['0', '-1', '1.5', 'two'])('stops the service at start on %p, naming the setting', (value) => {
    expect(() => loadConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: value })).toThrow(
      /WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT/,
    );
  });
});
