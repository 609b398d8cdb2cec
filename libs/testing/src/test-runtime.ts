import { CommandBus, InProcessBus, InProcessClient } from '@cts/messaging';
import { createLogger, loadConfig, MemoryCacheStore } from '@cts/platform';
import { type Runtime } from '@cts/runtime';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The one-process wiring on a given database, with its own bus: what unit and integration tests start services on. */
export function inProcessTestRuntime(
  databaseUrl: string,
  env: Record<string, string> = {},
): Runtime & { bus: InProcessBus } {
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-test-'));
  const config = loadConfig({
    CTS_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    // The proof engine the test run chose (tools/test.mjs), as a deployed process would read it.
    ...(process.env.CTS_PROOF_ENGINE ? { CTS_PROOF_ENGINE: process.env.CTS_PROOF_ENGINE } : {}),
    ...env,
  });
  const cache = new MemoryCacheStore();
  const bus = new InProcessBus();
  return {
    mode: 'embedded',
    config,
    secrets: {
      adminToken: 'adm_test_token_0123456789abcdef',
      custodyMasterKey: Buffer.alloc(32, 1).toString('base64'),
      dataSealingKey: Buffer.alloc(32, 2).toString('base64'),
      apiKeyHashKey: Buffer.alloc(32, 3).toString('base64'),
    },
    databaseUrl,
    bus,
    logger: (name) => createLogger(name, 'silent'),
    sharedProbes: [],
    createCache: () => cache,
    stop: () => Promise.resolve(),
  };
}

export function inProcessCommandBus(bus: InProcessBus, timeoutMs = 10_000): CommandBus {
  return new CommandBus(new InProcessClient(bus), timeoutMs);
}

/** Waits until `check` passes or the time is up; returns the last error otherwise. */
export async function eventually(
  check: () => Promise<void> | void,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
