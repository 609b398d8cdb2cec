import { type ApiKey } from '@cts/contracts';
import { mergeUsage, parseUsage, withPendingUsage } from './api-key-usage.domain';

const key = (overrides: Partial<ApiKey> = {}): ApiKey => ({
  key_id: 'key_1',
  name: 'ci',
  environment: 'test',
  prefix: 'svc_test_AbCd',
  created_at: '2026-01-01T00:00:00.000Z',
  last_used_at: null,
  request_count: 0,
  revoked_at: null,
  ...overrides,
});

describe('usage counters', () => {
  it('reads counts and last uses per key', () => {
    const usage = parseUsage(
      { 'key_1:n': '3', 'key_1:t': '2026-01-02T00:00:00.000Z', 'key_2:n': '1' },
      '2026-01-03T00:00:00.000Z',
    );

    expect([...usage]).toEqual([
      ['key_1', { requests: 3, lastUsedAt: '2026-01-02T00:00:00.000Z' }],
      ['key_2', { requests: 1, lastUsedAt: '2026-01-03T00:00:00.000Z' }],
    ]);
  });

  it('ignores a last use without a count and counts that are not positive integers', () => {
    expect(
      parseUsage({ 'key_1:t': '2026-01-02T00:00:00.000Z', 'key_2:n': '0', 'key_3:n': 'x' }, 'now').size,
    ).toBe(0);
  });

  it('merges counts, keeping the latest use', () => {
    const a = new Map([['key_1', { requests: 2, lastUsedAt: '2026-01-02T00:00:00.000Z' }]]);
    const b = new Map([['key_1', { requests: 3, lastUsedAt: '2026-01-01T00:00:00.000Z' }]]);

    expect(mergeUsage(a, b).get('key_1')).toEqual({ requests: 5, lastUsedAt: '2026-01-02T00:00:00.000Z' });
  });

  it('adds pending usage to a stored key', () => {
    const pending = { requests: 2, lastUsedAt: '2026-01-05T00:00:00.000Z' };

    expect(
      withPendingUsage(key({ request_count: 7, last_used_at: '2026-01-04T00:00:00.000Z' }), pending),
    ).toMatchObject({
      request_count: 9,
      last_used_at: '2026-01-05T00:00:00.000Z',
    });
    expect(withPendingUsage(key(), pending)).toMatchObject({
      request_count: 2,
      last_used_at: '2026-01-05T00:00:00.000Z',
    });
    expect(withPendingUsage(key({ request_count: 1 }), undefined)).toEqual(key({ request_count: 1 }));
  });
});
