import { loadConfig } from '@cts/platform';
import { generateStackSecrets } from './app-processes';

describe('generateStackSecrets', () => {
  it('gives a local stack every secret, INTERNAL_TOKEN among them, in a form the apps accept', () => {
    const secrets = generateStackSecrets();
    expect(Object.keys(secrets).sort()).toEqual([
      'ADMIN_TOKEN',
      'API_KEY_HASH_KEY',
      'CUSTODY_MASTER_KEY',
      'DATA_SEALING_KEY',
      'INTERNAL_TOKEN',
    ]);
    expect(loadConfig(secrets).INTERNAL_TOKEN).toBe(secrets.INTERNAL_TOKEN);
  });

  it('gives each stack its own token', () => {
    expect(generateStackSecrets().INTERNAL_TOKEN).not.toBe(generateStackSecrets().INTERNAL_TOKEN);
  });
});
