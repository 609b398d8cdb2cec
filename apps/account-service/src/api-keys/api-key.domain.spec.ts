import { createHash } from 'node:crypto';
import { type ApiKeyState, authenticates, laterOf, mayIssueKeyFor, toApiKeyResource } from './api-key.domain';

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

const key: ApiKeyState = {
  id: 'key_1',
  accountId: 'acct_1',
  name: 'ci',
  environment: 'test',
  keyHash: hashOf('svc_test_secret'),
  prefix: 'svc_test_abcd',
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  lastUsedAt: null,
  requestCount: 0,
  revokedAt: null,
};

describe('authenticates', () => {
  it('accepts the hash of the key’s secret', () => {
    expect(authenticates(key, hashOf('svc_test_secret'))).toBe(true);
  });

  it('refuses another hash, a truncated one and one that is not hex', () => {
    expect(authenticates(key, hashOf('svc_test_other'))).toBe(false);
    expect(authenticates(key, key.keyHash.slice(0, 62))).toBe(false);
    expect(authenticates(key, 'zz')).toBe(false);
  });

  it('refuses a revoked key even with the right hash', () => {
    expect(authenticates({ ...key, revokedAt: new Date() }, hashOf('svc_test_secret'))).toBe(false);
  });
});

describe('laterOf', () => {
  const earlier = new Date('2026-01-01T00:00:00.000Z');
  const later = new Date('2026-01-01T00:00:01.000Z');

  it('keeps the latest use when flushes arrive out of order', () => {
    expect(laterOf(later, earlier)).toBe(later);
    expect(laterOf(earlier, later)).toBe(later);
    expect(laterOf(null, earlier)).toBe(earlier);
  });
});

describe('toApiKeyResource', () => {
  it('shows the key without its hash', () => {
    const resource = toApiKeyResource({
      ...key,
      lastUsedAt: new Date('2026-01-02T00:00:00.000Z'),
      requestCount: 7,
    });
    expect(resource).toEqual({
      key_id: 'key_1',
      name: 'ci',
      environment: 'test',
      prefix: 'svc_test_abcd',
      created_at: '2026-01-01T00:00:00.000Z',
      last_used_at: '2026-01-02T00:00:00.000Z',
      request_count: 7,
      revoked_at: null,
    });
    expect(JSON.stringify(resource)).not.toContain(key.keyHash);
  });
});

const person = { id: 'acct_person', type: 'personal', ownerAccountId: null };
const agent = { id: 'acct_agent', type: 'agent', ownerAccountId: 'acct_person' };

describe('who may get a new API key', () => {
  it('lets an account create its own keys, and an operator any', () => {
    expect(mayIssueKeyFor(person, 'acct_person')).toBe(true);
    expect(mayIssueKeyFor(person, null)).toBe(true);
    expect(mayIssueKeyFor(agent, null)).toBe(true);
  });

  it("refuses an agent's own key and lets only its owner provision the agent's keys", () => {
    expect(mayIssueKeyFor(agent, 'acct_agent')).toBe(false);
    expect(mayIssueKeyFor(agent, 'acct_person')).toBe(true);
    expect(mayIssueKeyFor(agent, 'acct_stranger')).toBe(false);
    expect(mayIssueKeyFor(person, 'acct_stranger')).toBe(false);
  });
});
