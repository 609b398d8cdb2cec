import { findFreePort } from '@cts/testing';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A Kafka broker, PostgreSQL or Redis server this test alone uses, to kill and restart. */
export interface OwnServer {
  address: string;
  /** SIGKILL to the server process itself (the JVM, the postmaster), as a crashed node. */
  kill(): Promise<void>;
  /** SIGTERM: a clean stop, as a rolling restart. */
  stop(): Promise<void>;
  /** Starts it again on the same data and port. */
  start(): Promise<void>;
  remove(): Promise<void>;
}

const script = join(__dirname, 'own-infra-server.mjs');

function pidsWhoseCommandLineHas(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

export async function ownServer(kind: 'kafka' | 'postgres' | 'redis'): Promise<OwnServer> {
  const dir = mkdtempSync(join(tmpdir(), `cts-own-${kind}-`));
  const ports = [await findFreePort(), await findFreePort()].map(String);
  let helper: ChildProcess | undefined;
  let address = '';
  const start = async () => {
    const child = spawn(process.execPath, [script, kind, dir, ...ports], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    helper = child;
    let output = '';
    address = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /READY (\S+)/.exec(output);
        if (ready?.[1]) {
          resolve(ready[1]);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) =>
        reject(new Error(`${kind} did not start (exit ${code}): ${output.slice(-2000)}`)),
      );
    });
  };
  const stopHelper = async () => {
    if (helper && helper.exitCode === null && helper.signalCode === null) {
      const exited = once(helper, 'exit');
      helper.kill('SIGTERM');
      await exited;
    }
  };
  await start();
  return {
    get address() {
      return address;
    },
    async kill() {
      // The JVM's command line names its config under `dir`; the postmaster's names its data dir.
      const servers = pidsWhoseCommandLineHas(dir).filter((pid) => pid !== helper?.pid);
      servers.forEach((pid) => process.kill(pid, 'SIGKILL'));
      await stopHelper();
    },
    stop: stopHelper,
    start,
    async remove() {
      await stopHelper();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
