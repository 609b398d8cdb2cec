import { ServiceTopics } from '@cts/contracts';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join, sep } from 'node:path';

// The local launcher: every app as its own process from dist/ (`npm run stack`, the distributed
// benchmark, and the e2e tests through @cts/testing).
// From libs/runtime/src/launcher (ts-jest) or dist/libs/runtime/launcher (built): strip only a
// build's `dist/libs`, so a checkout that is itself in a directory named `dist` still finds its root.
const builtFrom = __dirname.lastIndexOf(`${sep}dist${sep}libs${sep}runtime`);
const repoRoot =
  builtFrom >= 0 && !__dirname.endsWith(`${sep}src${sep}launcher`)
    ? __dirname.slice(0, builtFrom)
    : join(__dirname, '../../../..');

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Fresh secrets for a local stack (the distributed mode requires them all), INTERNAL_TOKEN with them:
 * a local stack guards its internal paths as a deployment does.
 */
export function generateStackSecrets(): Record<string, string> {
  const key = () => randomBytes(32).toString('base64');
  return {
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
    CUSTODY_MASTER_KEY: key(),
    DATA_SEALING_KEY: key(),
    API_KEY_HASH_KEY: key(),
    INTERNAL_TOKEN: randomBytes(32).toString('base64url'),
  };
}

export interface AppProcess {
  app: string;
  pid: number | undefined;
  url: string | undefined;
  /** A service's `/healthz`, `/readyz`, `/metrics`; the gateway's `/metrics` (METRICS_PORT). */
  healthUrl: string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  /** Dies at once, as a crashed pod would. */
  kill(): Promise<void>;
}

type OutputSink = (app: string, line: string) => void;

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    }
    try {
      if ((await fetch(url)).ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms`);
}

function pipeLines(child: ChildProcess, app: string, sink: OutputSink): void {
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      lines.forEach((line) => sink(app, line));
    });
  }
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Starts `node dist/apps/<app>/main.js` with `env`; resolves when its /readyz answers 200. */
export async function startAppProcess(
  app: string,
  env: Record<string, string | undefined>,
  options: { onOutput?: OutputSink; readyTimeoutMs?: number; healthPort?: number } = {},
): Promise<AppProcess> {
  const healthPort = options.healthPort ?? (await findFreePort());
  const port = app === 'gateway' ? (env.PORT ?? String(await findFreePort())) : undefined;
  const child = spawn(process.execPath, [join(repoRoot, 'dist/apps', app, 'main.js')], {
    cwd: repoRoot,
    // The gateway serves its metrics on METRICS_PORT (it has no HEALTH_PORT): both are `healthUrl`.
    env: {
      ...process.env,
      ...env,
      HEALTH_PORT: String(healthPort),
      METRICS_PORT: String(healthPort),
      ...(port ? { PORT: port } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pipeLines(child, app, options.onOutput ?? ((name, line) => process.stdout.write(`[${name}] ${line}\n`)));
  const readyUrl = port ? `http://127.0.0.1:${port}/readyz` : `http://127.0.0.1:${healthPort}/readyz`;
  try {
    await waitUntilReady(readyUrl, child, options.readyTimeoutMs ?? 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    app,
    pid: child.pid,
    url: port ? `http://127.0.0.1:${port}` : undefined,
    healthUrl: `http://127.0.0.1:${healthPort}`,
    async stop(graceMs = 20_000) {
      if (exited(child)) {
        return child.exitCode;
      }
      const exit = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
      return child.exitCode;
    },
    async kill() {
      if (exited(child)) {
        return;
      }
      const exit = once(child, 'exit');
      child.kill('SIGKILL');
      await exit;
    },
  };
}

export interface AppProcesses {
  gatewayUrl: string;
  processes: AppProcess[];
  stop(): Promise<void>;
}

/** The direct query path to the services started (`SERVICE_QUERY_URLS`): each replica's internal port. */
export function queryUrlsOf(processes: Pick<AppProcess, 'app' | 'healthUrl'>[]): string {
  const byApp = new Map<string, string[]>();
  for (const p of processes.filter((p) => p.app in ServiceTopics)) {
    byApp.set(p.app, [...(byApp.get(p.app) ?? []), p.healthUrl]);
  }
  return [...byApp].map(([app, urls]) => `${app}=${urls.join(',')}`).join(';');
}

/** `count` distinct free ports (one bind each may hand back a port an earlier bind returned). */
async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) {
    ports.add(await findFreePort());
  }
  return [...ports];
}

/**
 * Starts the services (`replicas[app]` processes each, default 1), then the gateway. Every app reads
 * from the services directly (`SERVICE_QUERY_URLS`: the gateway, and a service that asks another, such
 * as transfer-service resolving a recipient) unless `env` says otherwise (an empty value: over Kafka).
 * The services' internal ports are chosen before any starts, so each knows the others' addresses.
 */
export async function startAppProcesses(
  env: Record<string, string | undefined>,
  options: {
    apps: string[];
    replicas?: Record<string, number>;
    onOutput?: OutputSink;
    readyTimeoutMs?: number;
  },
): Promise<AppProcesses> {
  const processes: AppProcess[] = [];
  const stop = async () => {
    await Promise.all([...processes].reverse().map((p) => p.stop()));
  };
  try {
    const services = options.apps
      .filter((app) => app !== 'gateway')
      .flatMap((app) => Array.from({ length: options.replicas?.[app] ?? 1 }, () => app));
    const ports = await distinctFreePorts(services.length);
    const planned = services.map((app, i) => ({ app, healthPort: ports[i] ?? 0 }));
    const queries =
      env.SERVICE_QUERY_URLS ??
      queryUrlsOf(
        planned.map(({ app, healthPort }) => ({ app, healthUrl: `http://127.0.0.1:${healthPort}` })),
      );
    // Local processes reach the gateway's internal port on the loopback (an empty value: over Kafka).
    const appEnv = { ...env, SERVICE_QUERY_URLS: queries, REPLY_HOST: env.REPLY_HOST ?? '127.0.0.1' };
    const starting = planned.map(({ app, healthPort }) =>
      startAppProcess(app, appEnv, {
        onOutput: options.onOutput,
        readyTimeoutMs: options.readyTimeoutMs,
        healthPort,
      }),
    );
    const settled = await Promise.allSettled(starting);
    processes.push(...settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) {
      throw failed.reason;
    }
    if (options.apps.includes('gateway')) {
      processes.push(
        await startAppProcess('gateway', appEnv, {
          onOutput: options.onOutput,
          readyTimeoutMs: options.readyTimeoutMs,
        }),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { gatewayUrl: processes.find((p) => p.app === 'gateway')?.url ?? '', processes, stop };
}
