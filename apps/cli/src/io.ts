import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** Everything the CLI touches outside its own code, so tests can run it in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly fetch: typeof fetch;
  /** Runs `node <script>` with inherited stdio; resolves to its exit code. */
  readonly runNodeScript: (script: string, cwd: string) => Promise<number>;
  /** Stops long-running commands (`cts listen`); unset: they stop on SIGINT/SIGTERM. */
  readonly signal?: AbortSignal;
}

export function runNodeScript(script: string, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    // process.execPath rather than `node` on PATH: the same Node that runs the CLI.
    const child = spawn(process.execPath, [script], { cwd, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal) {
        resolve(128 + (constants.signals[signal] ?? 0));
        return;
      }
      resolve(code ?? 1);
    });
  });
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    fetch: globalThis.fetch,
    runNodeScript,
  };
}
