import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const repoRoot = resolve(__dirname, '../../..');
const run = promisify(execFile);

// The embedded PostgreSQL's package is ESM, which jest's runtime cannot load: the runtime is
// started from the build in a child process, as the one-process mode starts it.
const CHILD = `
const { loadConfig } = require(${JSON.stringify(join(repoRoot, 'dist/libs/platform'))});
const { createEmbeddedRuntime } = require(${JSON.stringify(join(repoRoot, 'dist/libs/runtime'))});
const secrets = {
  ADMIN_TOKEN: 'adm_test_token_0123456789abcdef',
  CUSTODY_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'),
  DATA_SEALING_KEY: Buffer.alloc(32, 2).toString('base64'),
  API_KEY_HASH_KEY: Buffer.alloc(32, 3).toString('base64'),
};
(async () => {
  const own = await createEmbeddedRuntime(loadConfig({ CTS_DATA_DIR: process.argv[1], LOG_LEVEL: 'silent', ...secrets }));
  const shared = await createEmbeddedRuntime(loadConfig({ DATABASE_URL: own.databaseUrl, LOG_LEVEL: 'silent', ...secrets }));
  console.log(JSON.stringify({ own: own.ownsDatabase, shared: shared.ownsDatabase }));
  await shared.stop();
  await own.stop();
})().catch((error) => { console.error(error); process.exit(3); });
`;

describe('the embedded runtime', () => {
  let dataDir: string;

  beforeAll(async () => {
    await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `await (await import('./tools/build.mjs')).build(['platform', 'runtime']);`,
      ],
      { cwd: repoRoot },
    );
    dataDir = mkdtempSync(join(tmpdir(), 'cts-embedded-runtime-'));
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('owns the PostgreSQL it started, and not one that DATABASE_URL names', async () => {
    const { stdout } = await run(process.execPath, ['-e', CHILD, dataDir], {
      cwd: repoRoot,
      timeout: 60_000,
    });
    expect(JSON.parse(stdout.trim().split('\n').pop() ?? '')).toEqual({ own: true, shared: false });
  });
});
