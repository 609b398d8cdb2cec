import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { emptyDir, runCli } from '../testing/test-io';
import { findRepoRoot } from './repo-root';

describe('cts migrate', () => {
  function fakeRepo(): string {
    const root = emptyDir();
    mkdirSync(join(root, 'tools'));
    writeFileSync(join(root, 'tools', 'migrate.mjs'), '');
    return root;
  }

  it('runs tools/migrate.mjs from the repository root', async () => {
    const root = fakeRepo();

    const result = await runCli(['migrate'], { repoRoot: root });

    expect(result.exitCode).toBe(0);
    expect(result.scripts).toEqual([{ script: join(root, 'tools', 'migrate.mjs'), cwd: root }]);
  });

  it("exits with the script's exit code when it fails", async () => {
    const result = await runCli(['migrate'], { repoRoot: fakeRepo(), scriptExitCode: 3 });

    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/^error: migrations failed: .*migrate\.mjs exited with code 3\n$/);
  });

  it('says so when the script does not exist', async () => {
    const root = emptyDir();

    const result = await runCli(['migrate'], { repoRoot: root });

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `error: ${join(root, 'tools', 'migrate.mjs')} not found — is this checkout up to date?\n`,
    );
    expect(result.scripts).toHaveLength(0);
  });

  it('finds the monorepo root above its own source file by default', () => {
    expect(findRepoRoot()).toBe(resolve(__dirname, '../../../..'));
  });

  it('finds no root when no package.json declares workspaces', () => {
    expect(findRepoRoot(emptyDir())).toBeUndefined();
  });
});
