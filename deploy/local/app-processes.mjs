// Runs built apps as separate processes (`node dist/apps/<app>/main.js`) wired through Kafka,
// PostgreSQL and Redis: the distributed mode on one machine, for `npm run stack` and e2e tests.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { findFreePort } from './ports.mjs';

const repoRoot = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');

/** Fresh secrets for a local stack (the distributed mode requires them all to be set). */
export function generateStackSecrets() {
  const key = () => randomBytes(32).toString('base64');
  return {
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
    CUSTODY_MASTER_KEY: key(),
    DATA_SEALING_KEY: key(),
    API_KEY_HASH_KEY: key(),
  };
}

async function waitUntilReady(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms`);
}

/**
 * Starts one process of `app` with `env`; resolves when its /readyz answers 200.
 * Output goes to `onOutput(app, line)` (default: prefixed on stdout).
 */
export async function startAppProcess(app, env, { onOutput, readyTimeoutMs = 60_000 } = {}) {
  const healthPort = await findFreePort();
  const port = app === 'gateway' ? (env.PORT ?? (await findFreePort())) : undefined;
  const child = spawn(process.execPath, [join(repoRoot, 'dist/apps', app, 'main.js')], {
    cwd: repoRoot,
    env: { ...process.env, ...env, HEALTH_PORT: String(healthPort), ...(port ? { PORT: String(port) } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const write = onOutput ?? ((name, line) => process.stdout.write(`[${name}] ${line}\n`));
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      lines.forEach((line) => write(app, line));
    });
  }
  const readyUrl = port ? `http://127.0.0.1:${port}/readyz` : `http://127.0.0.1:${healthPort}/readyz`;
  await waitUntilReady(readyUrl, child, readyTimeoutMs);
  return {
    app,
    pid: child.pid,
    url: port ? `http://127.0.0.1:${port}` : undefined,
    healthUrl: `http://127.0.0.1:${healthPort}`,
    /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
    async stop(graceMs = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await once(child, 'exit');
      clearTimeout(timer);
      return child.exitCode;
    },
    /** Dies at once, as a crashed pod would. */
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

/**
 * Starts every app (services first, then the gateway), `replicas[app]` processes each (default 1).
 * Returns `{ gatewayUrl, processes, stop() }`.
 */
export async function startAppProcesses(env, { apps, replicas = {}, onOutput } = {}) {
  const processes = [];
  const stop = async () => {
    await Promise.all([...processes].reverse().map((p) => p.stop()));
  };
  try {
    const services = apps.filter((app) => app !== 'gateway');
    const started = await Promise.all(
      services.flatMap((app) => Array.from({ length: replicas[app] ?? 1 }, () => startAppProcess(app, env, { onOutput }))),
    );
    processes.push(...started);
    if (apps.includes('gateway')) {
      processes.push(await startAppProcess('gateway', env, { onOutput }));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { gatewayUrl: processes.find((p) => p.app === 'gateway')?.url, processes, stop };
}
