import { findFreePort } from '@cts/testing';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, uniqueHandle } from './support/http';

describe('npm run stack: every app its own process, started by one command', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-stack-'));
  let child: ChildProcess;
  let output = '';

  afterAll(() => {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, serves the API through Kafka, and stops cleanly on Ctrl-C', async () => {
    const port = await findFreePort();
    // Reuses the test run's Kafka, PostgreSQL and Redis (the script starts them only when unset).
    child = spawn(process.execPath, [join(__dirname, '../deploy/local/stack.mjs')], {
      env: {
        ...process.env,
        PORT: String(port),
        CTS_DATA_DIR: dataDir,
        KAFKA_GROUP_SUFFIX: `-stack-${Date.now()}`,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 120_000;
    while (!output.includes('is running')) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`npm run stack did not come up:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const adminToken = /Admin token:\s+(\S+)/.exec(output)?.[1] ?? '';
    const baseUrl = `http://127.0.0.1:${port}`;
    const created = await http(baseUrl, 'POST', '/admin/v1/accounts', {
      token: adminToken,
      body: { handle: uniqueHandle('stack'), type: 'personal' },
    });
    expect(created.status).toBe(201);
    const key = (created.body as { api_keys: { test: { secret: string } } }).api_keys.test.secret;
    expect((await http(baseUrl, 'GET', '/v1/accounts/me', { token: key })).status).toBe(200);

    const exited = once(child, 'exit');
    child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  }, 180_000);
});
