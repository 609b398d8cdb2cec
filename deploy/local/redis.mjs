// Redis from Debian's `redis-server` binary (see install-prereqs.sh), one throwaway instance per call.
import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { findFreePort } from './ports.mjs';
import { hasExited, killOnExit, waitForExit } from './child-process.mjs';

const STARTUP_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;

/** Starts an in-memory Redis on 127.0.0.1; resolves once it answers PING. */
export async function startRedis({ dir, port } = {}) {
  if (!dir) {
    throw new Error('startRedis: `dir` is required');
  }
  dir = resolve(dir);
  port ??= await findFreePort();
  await mkdir(dir, { recursive: true });
  const logFile = join(dir, 'redis.log');

  const server = spawnRedis({ dir, port, logFile });
  const url = `redis://127.0.0.1:${port}`;
  try {
    await waitUntilRedisAnswers(url, server, logFile);
  } catch (error) {
    await stopProcess(server);
    throw error;
  }
  return { url, stop: once(() => stopProcess(server)) };
}

function spawnRedis({ dir, port, logFile }) {
  const options = {
    port: String(port),
    bind: '127.0.0.1',
    save: '', // no RDB snapshots
    appendonly: 'no',
    dir,
    logfile: logFile,
    daemonize: 'no',
  };
  const args = Object.entries(options).flatMap(([name, value]) => [`--${name}`, value]);
  const server = spawn('redis-server', args, {
    stdio: 'ignore',
    detached: true, // own process group: stopped by us after the command under test, not by a terminal Ctrl-C
  });
  killOnExit(server);
  return server;
}

async function waitUntilRedisAnswers(url, server, logFile) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let spawnError;
  server.once('error', (error) => (spawnError = error));
  for (;;) {
    if (spawnError?.code === 'ENOENT') {
      throw new Error(
        'redis-server is not installed: run `bash deploy/local/install-prereqs.sh` (or apt-get install redis-server)',
      );
    }
    if (spawnError || hasExited(server)) {
      const reason = spawnError?.message ?? `exit code ${server.exitCode}`;
      throw new Error(`redis-server exited during startup (${reason}):\n${await lastLines(logFile)}`);
    }
    if (await answersPing(url)) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `redis-server did not answer PING on ${url} within ${STARTUP_TIMEOUT_MS / 1000} s:\n${await lastLines(logFile)}`,
      );
    }
    await sleep(50);
  }
}

async function lastLines(file, count = 5) {
  const text = await readFile(file, 'utf8').catch(() => `(no log at ${file})`);
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

async function answersPing(url) {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    // Something else holding the port may accept the connection and never answer.
    commandTimeout: 1_000,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => {}); // connection refused while starting is expected
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

// --- child process ---

async function stopProcess(child) {
  if (hasExited(child) || child.pid === undefined) {
    return;
  }
  child.kill('SIGTERM');
  if (await waitForExit(child, STOP_TIMEOUT_MS)) {
    return;
  }
  child.kill('SIGKILL');
  await waitForExit(child);
}

function once(fn) {
  let result;
  return () => (result ??= fn());
}
