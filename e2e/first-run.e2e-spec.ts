import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOneProcessMode } from './support/one-process-mode';

const START = join(__dirname, '../tools/start.mjs');

/** `npm start` expected to stop before serving: its exit code and what it printed on stderr. */
async function failedStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...env };
  for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'ADMIN_TOKEN']) {
    delete childEnv[name];
  }
  const child = spawn(process.execPath, [START], { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

describe('npm start on a first run: a problem it can name is one message saying what to do', () => {
  const dirs: string[] = [];
  const privateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cts-first-run-')); // mode 700, like `mktemp -d`
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('names an invalid setting, without a stack trace', async () => {
    const run = await failedStart({ PORT: 'eighty', CTS_DATA_DIR: join(privateDir(), 'data') });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^npm start: Invalid configuration: PORT: /m);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('names the setting whose port is taken, without a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const { port } = taken.address() as { port: number };
    const parent = privateDir();
    chmodSync(parent, 0o755); // the embedded PostgreSQL's user must enter it when we run as root
    try {
      const run = await failedStart({ METRICS_PORT: String(port), CTS_DATA_DIR: join(parent, 'data') });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `npm start: METRICS_PORT=${port} is in use (another npm start?): set METRICS_PORT to a free port`,
      );
      expect(run.stderr).not.toMatch(/^\s+at /m);
    } finally {
      taken.close();
    }
  }, 120_000);

  it('as root, refuses a data directory under a parent the database user cannot enter, with the ways out', async () => {
    const parent = privateDir();
    const dataDir = join(parent, 'data');
    if (process.getuid?.() !== 0) {
      // Not root: PostgreSQL runs as this user, who can enter the directory; it simply starts.
      mkdirSync(dataDir);
      const running = await startOneProcessMode(dataDir);
      expect(await running.stop()).toBe(0);
      return;
    }
    const run = await failedStart({ CTS_DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`npm start: CTS_DATA_DIR=${dataDir} cannot be used when running as root`);
    expect(run.stderr).toContain(`cannot enter ${parent} (mode 700)`);
    expect(run.stderr).toContain(`setfacl -m u:postgres:x ${parent}`);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr).not.toMatch(/initdb/);
  }, 120_000);
});
