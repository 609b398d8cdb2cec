import { DomainError } from '@cts/contracts';
import { IdempotencyRecordSealing } from './idempotency-record.sealing';
import { isReplayableFailure, parseIdempotencyKey, requestFingerprint } from './idempotency.domain';

describe('idempotency rules', () => {
  it('fingerprints a request independently of its key order', () => {
    expect(requestFingerprint('POST', '/v1/x', { a: 1, b: { c: [1, 2], d: null } })).toBe(
      requestFingerprint('post', '/v1/x', { b: { d: null, c: [1, 2] }, a: 1 }),
    );
  });

  it('tells apart bodies, paths and methods', () => {
    const base = requestFingerprint('POST', '/v1/x', { a: 1 });
    expect(requestFingerprint('POST', '/v1/x', { a: 2 })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/y', { a: 1 })).not.toBe(base);
    expect(requestFingerprint('PATCH', '/v1/x', { a: 1 })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/x', [1, 2])).not.toBe(requestFingerprint('POST', '/v1/x', [2, 1]));
  });

  it('accepts 1 to 255 visible ASCII characters as a key', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('3f1c-ab:9')).toBe('3f1c-ab:9');
    for (const bad of ['', 'with space', 'é', 'k'.repeat(256), ['a', 'b']]) {
      expect(() => parseIdempotencyKey(bad)).toThrow(DomainError);
    }
  });

  it('keeps client errors except invalid requests, never server errors', () => {
    expect(isReplayableFailure(409, 'handle_taken')).toBe(true);
    expect(isReplayableFailure(400, 'invalid_request')).toBe(false);
    expect(isReplayableFailure(503, 'service_unavailable')).toBe(false);
  });
});

describe('IdempotencyRecordSealing', () => {
  const sealing = new IdempotencyRecordSealing(Buffer.from('hash-key'));

  it('stores neither the key nor the response in the clear', () => {
    const sealed = sealing.seal('account:acct_1:test', 'my-key', { secret: 'svc_test_SECRET' });

    expect(sealing.storageKey('account:acct_1:test', 'my-key')).not.toContain('my-key');
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('SECRET');
    expect(sealing.open('account:acct_1:test', 'my-key', sealed)).toEqual({ secret: 'svc_test_SECRET' });
  });

  it('opens a record only with its own scope and key', () => {
    const sealed = sealing.seal('account:acct_1:test', 'my-key', { a: 1 });

    expect(sealing.open('account:acct_2:test', 'my-key', sealed)).toBeUndefined();
    expect(sealing.open('account:acct_1:test', 'other', sealed)).toBeUndefined();
    expect(
      new IdempotencyRecordSealing(Buffer.from('other')).open('account:acct_1:test', 'my-key', sealed),
    ).toBeUndefined();
    expect(sealing.open('account:acct_1:test', 'my-key', 'garbage')).toBeUndefined();
  });
});
