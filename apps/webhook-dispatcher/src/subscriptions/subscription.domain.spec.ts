import { WEBHOOK_EVENT_TYPES } from '@cts/contracts';
import { FRESH_STATE, checkEventTypes, endpointOf, toWebhookResource } from './subscription.domain';

describe('checkEventTypes', () => {
  it('accepts known types, dropping duplicates and keeping the order', () => {
    expect(checkEventTypes(['transfer.failed', 'transfer.confirmed', 'transfer.failed'])).toEqual({
      ok: true,
      events: ['transfer.failed', 'transfer.confirmed'],
    });
    expect(checkEventTypes([...WEBHOOK_EVENT_TYPES]).ok).toBe(true);
  });

  it('names the first unknown type and where it is', () => {
    expect(checkEventTypes(['transfer.confirmed', 'transfer.*'])).toMatchObject({
      ok: false,
      param: 'events.1',
      message: expect.stringContaining('"transfer.*"'),
    });
  });

  it('needs at least one type', () => {
    expect(checkEventTypes([])).toMatchObject({ ok: false, param: 'events' });
  });
});

describe('toWebhookResource', () => {
  it('shows the spec §2.7 fields without a secret', () => {
    const createdAt = new Date('2026-01-01T00:00:00.000Z');
    expect(
      toWebhookResource({
        id: 'wh_1',
        accountId: 'acct_1',
        environment: 'test',
        url: 'https://x.example/',
        events: ['transfer.confirmed'],
        createdAt,
        ...FRESH_STATE,
      }),
    ).toEqual({
      webhook_id: 'wh_1',
      url: 'https://x.example/',
      events: ['transfer.confirmed'],
      created_at: '2026-01-01T00:00:00.000Z',
      disabled: false,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      previous_secret_expires_at: null,
    });
  });

  it('says why and since when a subscription is disabled, and until when the previous secret signs', () => {
    expect(
      toWebhookResource({
        id: 'wh_1',
        accountId: 'acct_1',
        environment: 'test',
        url: 'https://x.example/',
        events: ['transfer.confirmed'],
        createdAt: new Date('2026-01-01T00:00:00.000Z'),
        disabledAt: new Date('2026-01-06T00:00:00.000Z'),
        disabledReason: 'endpoint_failing',
        failingSince: new Date('2026-01-01T00:00:00.000Z'),
        previousSecretExpiresAt: new Date('2026-01-02T00:00:00.000Z'),
      }),
    ).toMatchObject({
      disabled: true,
      disabled_reason: 'endpoint_failing',
      disabled_at: '2026-01-06T00:00:00.000Z',
      failing_since: '2026-01-01T00:00:00.000Z',
      previous_secret_expires_at: '2026-01-02T00:00:00.000Z',
    });
  });
});

describe('endpointOf', () => {
  it.each([
    ['https://Hooks.Example.com/a/b?c=d#e', 'https://hooks.example.com'],
    ['https://hooks.example.com:443/x', 'https://hooks.example.com'],
    ['https://hooks.example.com.:8443/x', 'https://hooks.example.com:8443'],
    ['https://[::1]:8443/x', 'https://[::1]:8443'],
  ])('%s is endpoint %s', (url, endpoint) => {
    expect(endpointOf(url)).toBe(endpoint);
  });

  it('tells apart two ports of one host, and joins two paths of one origin', () => {
    expect(endpointOf('https://a.example:8443/x')).not.toBe(endpointOf('https://a.example/x'));
    expect(endpointOf('https://a.example/x')).toBe(endpointOf('https://a.example/y'));
  });
});
