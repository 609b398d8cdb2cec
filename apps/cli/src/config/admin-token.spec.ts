import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyDir } from '../testing/test-io';
import { adminTokenFile, resolveAdminToken } from './admin-token';

describe('resolveAdminToken', () => {
  function dirWithTokenFile(token: string, dataDir = '.data'): string {
    const cwd = emptyDir();
    mkdirSync(join(cwd, dataDir), { recursive: true });
    writeFileSync(join(cwd, dataDir, 'admin-token'), token);
    return cwd;
  }

  it('prefers --token over ADMIN_TOKEN and the file', () => {
    const cwd = dirWithTokenFile('from-file');

    expect(resolveAdminToken({ flag: 'from-flag', env: { ADMIN_TOKEN: 'from-env' }, cwd })).toBe('from-flag');
  });

  it('prefers ADMIN_TOKEN over the file', () => {
    const cwd = dirWithTokenFile('from-file');

    expect(resolveAdminToken({ env: { ADMIN_TOKEN: 'from-env' }, cwd })).toBe('from-env');
  });

  it('reads ./.data/admin-token and trims the trailing newline', () => {
    const cwd = dirWithTokenFile('from-file\n');

    expect(resolveAdminToken({ env: {}, cwd })).toBe('from-file');
  });

  it('reads the file under CTS_DATA_DIR when set', () => {
    const cwd = dirWithTokenFile('elsewhere', 'var/cts');

    expect(resolveAdminToken({ env: { CTS_DATA_DIR: 'var/cts' }, cwd })).toBe('elsewhere');
    expect(adminTokenFile({ CTS_DATA_DIR: '/abs/dir' }, cwd)).toBe('/abs/dir/admin-token');
  });

  it('treats blank values as absent', () => {
    const cwd = dirWithTokenFile('from-file');

    expect(resolveAdminToken({ flag: '  ', env: { ADMIN_TOKEN: '' }, cwd })).toBe('from-file');
  });

  it('explains the three sources when there is no token', () => {
    const cwd = emptyDir();

    expect(() => resolveAdminToken({ env: {}, cwd })).toThrow(
      expect.objectContaining({
        exitCode: 1,
        message: expect.stringMatching(/--token <token>[\s\S]*ADMIN_TOKEN[\s\S]*\.data\/admin-token/),
      }),
    );
  });

  it('treats an empty token file as no token', () => {
    const cwd = dirWithTokenFile('\n');

    expect(() => resolveAdminToken({ env: {}, cwd })).toThrow(/no admin token/);
  });
});
