import { apiKeyDisplayPrefix, apiKeyEnvironment, generateApiKeySecret } from './api-key-secret.domain';

describe('API key secrets', () => {
  it('are svc_<env>_ followed by 43 base62 characters', () => {
    for (let i = 0; i < 200; i++) {
      expect(generateApiKeySecret('live')).toMatch(/^svc_live_[0-9A-Za-z]{43}$/);
      expect(generateApiKeySecret('test')).toMatch(/^svc_test_[0-9A-Za-z]{43}$/);
    }
  });

  it('are never the same twice', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateApiKeySecret('test')));
    expect(secrets.size).toBe(1000);
  });

  it('tell their environment, and nothing for a malformed value', () => {
    expect(apiKeyEnvironment(generateApiKeySecret('live'))).toBe('live');
    expect(apiKeyEnvironment(generateApiKeySecret('test'))).toBe('test');
    for (const bad of [
      '',
      'svc_live_',
      `svc_prod_${'a'.repeat(43)}`,
      `svc_live_${'a'.repeat(42)}`,
      `svc_live_${'a'.repeat(44)}`,
      ` svc_live_${'a'.repeat(43)}`,
    ]) {
      expect(apiKeyEnvironment(bad)).toBeUndefined();
    }
  });

  it('show a prefix of the environment and four characters', () => {
    expect(apiKeyDisplayPrefix(`svc_test_AbCd${'x'.repeat(39)}`)).toBe('svc_test_AbCd');
    expect(apiKeyDisplayPrefix(`svc_live_0123${'x'.repeat(39)}`)).toBe('svc_live_0123');
  });
});
