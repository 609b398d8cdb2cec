import { DomainError } from '@cts/contracts';
import { environmentOfNewKey, refuseAgentKeyManagement } from './api-keys.domain';

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

describe("an agent's own key and key management", () => {
  it('refuses an agent listing or revoking keys with 403 forbidden, naming its owner’s route', () => {
    for (const action of ['list', 'revoke'] as const) {
      expect(() => refuseAgentKeyManagement('agent', action)).toThrow(
        expect.objectContaining({ code: 'forbidden', message: expect.stringContaining('/v1/agents/') }),
      );
    }
  });

  it('lets personal and business accounts manage their keys', () => {
    for (const type of ['personal', 'business'] as const) {
      expect(() => refuseAgentKeyManagement(type, 'list')).not.toThrow();
      expect(() => refuseAgentKeyManagement(type, 'revoke')).not.toThrow();
    }
  });
});
