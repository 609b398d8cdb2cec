import { DomainError } from '@cts/contracts';
import { environmentOfNewKey } from './api-keys.domain';

describe('environment of a new key', () => {
  it("defaults to the calling key's environment", () => {
    expect(environmentOfNewKey('live', undefined)).toBe('live');
    expect(environmentOfNewKey('test', undefined)).toBe('test');
  });

  it('lets a live key create either', () => {
    expect(environmentOfNewKey('live', 'test')).toBe('test');
    expect(environmentOfNewKey('live', 'live')).toBe('live');
  });

  it('never lets a test key create a live key', () => {
    expect(() => environmentOfNewKey('test', 'live')).toThrow(DomainError);
  });
});
