import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliIo } from '../io';
import { run } from '../program';

export interface ScriptRun {
  readonly script: string;
  readonly cwd: string;
}

export interface TestRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly scripts: readonly ScriptRun[];
}

export interface TestRunOptions {
  readonly env?: Record<string, string | undefined>;
  /** Defaults to a fresh empty directory, so no stray ./.data/admin-token is picked up. */
  readonly cwd?: string;
  readonly repoRoot?: string;
  readonly scriptExitCode?: number;
}

export function emptyDir(): string {
  return mkdtempSync(join(tmpdir(), 'cts-cli-'));
}

/** Runs the CLI in-process with captured output and a fake `node <script>` runner. */
export async function runCli(argv: readonly string[], options: TestRunOptions = {}): Promise<TestRun> {
  let stdout = '';
  let stderr = '';
  const scripts: ScriptRun[] = [];
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: options.env ?? {},
    cwd: options.cwd ?? emptyDir(),
    fetch: globalThis.fetch,
    runNodeScript: (script, cwd) => {
      scripts.push({ script, cwd });
      return Promise.resolve(options.scriptExitCode ?? 0);
    },
  };
  const exitCode = await run(argv, io, { repoRoot: options.repoRoot });
  return { exitCode, stdout, stderr, scripts };
}
