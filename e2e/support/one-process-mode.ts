import { findFreePort } from '@cts/testing';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export interface OneProcessMode {
  child: ChildProcess;
  baseUrl: string;
  /** Where `/metrics` is served: METRICS_PORT, never the API port. */
  metricsUrl: string;
  /** Everything it printed so far. */
  output: string[];
  /** SIGINT, then its exit code. */
  stop(): Promise<number | null>;
}

/**
 * `npm start` (tools/start.mjs) on a free port with `dataDir`, never on the test infrastructure
 * (its DATABASE_URL, KAFKA_BROKERS, REDIS_URL, ADMIN_TOKEN are dropped); resolves once it prints
 * its banner.
 */
export async function startOneProcessMode(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<OneProcessMode> {
  const port = await findFreePort();
  const metricsPort = await findFreePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    CTS_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...env,
  };
  for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'ADMIN_TOKEN']) {
    delete childEnv[name];
  }
  const child = spawn(process.execPath, [join(__dirname, '../../tools/start.mjs')], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const deadline = Date.now() + 90_000;
  while (!output.join('').includes('is running')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`npm start did not come up:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    output,
    async stop() {
      if (child.exitCode !== null) {
        return child.exitCode;
      }
      const exit = once(child, 'exit');
      child.kill('SIGINT');
      const [code] = (await exit) as [number | null];
      return code;
    },
  };
}
