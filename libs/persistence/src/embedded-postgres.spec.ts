import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  embeddedPostgresUrl,
  rootDataDirAdvice,
  startEmbeddedPostgres,
  untraversableParents,
} from './embedded-postgres';

describe('a data directory the embedded PostgreSQL must reach when started as root', () => {
  const modes: Record<string, number> = {
    '/': 0o755,
    '/root': 0o700,
    '/root/work': 0o750,
    '/var': 0o755,
    '/var/lib': 0o755,
  };
  const modeOf = (path: string) => modes[path] ?? 0o755;

  it('finds every parent that others cannot enter, outermost first', () => {
    expect(untraversableParents('/root/work/cts-data', modeOf)).toEqual([
      { path: '/root', mode: 0o700 },
      { path: '/root/work', mode: 0o750 },
    ]);
    expect(untraversableParents('/var/lib/cts', modeOf)).toEqual([]);
  });

  it('says exactly what to do', () => {
    const advice = rootDataDirAdvice(
      '/root/work/cts-data',
      untraversableParents('/root/work/cts-data', modeOf),
    );

    expect(advice).toContain('cannot enter /root (mode 700), /root/work (mode 750)');
    expect(advice).toContain('run npm start as a normal user');
    expect(advice).toContain('CTS_DATA_DIR=/var/lib/cts npm start');
    expect(advice).toContain('setfacl -m u:postgres:x /root /root/work');
  });

  it('checks the real file system: a mktemp -d parent (mode 700) blocks, the directory itself does not', () => {
    const parent = mkdtempSync(join(tmpdir(), 'cts-root-check-'));
    try {
      mkdirSync(join(parent, 'data'));
      chmodSync(parent, 0o700);

      expect(untraversableParents(join(parent, 'data'))).toEqual([{ path: parent, mode: 0o700 }]);
      expect(untraversableParents(parent)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  if (process.getuid?.() === 0) {
    it('refuses to start as root under such a parent, with the advice, before touching PostgreSQL', async () => {
      const parent = mkdtempSync(join(tmpdir(), 'cts-root-check-'));
      try {
        await expect(startEmbeddedPostgres(join(parent, 'data'))).rejects.toThrow(
          /cannot enter .*cts-root-check-.* \(mode 700\)/,
        );
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    });
  }
});

describe('the URL the apps reach the embedded PostgreSQL by', () => {
  it('names the socket directory and the port when the server has a Unix socket', () => {
    expect(embeddedPostgresUrl(54321, 'cts', '/tmp')).toBe('postgres://cts:cts@/cts?host=/tmp&port=54321');
  });

  it('is loopback TCP when it has none', () => {
    expect(embeddedPostgresUrl(54321, 'cts', null)).toBe('postgres://cts:cts@127.0.0.1:54321/cts');
  });
});
