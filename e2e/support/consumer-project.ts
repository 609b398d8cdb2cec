import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoRoot = join(__dirname, '../..');
const TSC = join(repoRoot, 'node_modules/typescript/bin/tsc');

/** The environment of a shell outside this repository: nothing npm set for the workspace. */
function outsideEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|NODE_PATH$|INIT_CWD$)/i.test(name)),
  );
  return { ...env, NODE_ENV: 'production' };
}

export interface Output {
  stdout: string;
  stderr: string;
}

/**
 * An empty npm project in the system's temp directory, outside the repository: what it can import
 * is what `npm install` put in its own node_modules.
 */
export class ConsumerProject {
  readonly dir = mkdtempSync(join(tmpdir(), 'cts-consumer-'));

  constructor() {
    writeFileSync(
      join(this.dir, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2),
    );
  }

  write(file: string, text: string): void {
    mkdirSync(join(this.dir, file, '..'), { recursive: true });
    writeFileSync(join(this.dir, file), text);
  }

  npm(...args: string[]): Promise<Output> {
    return run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: this.dir,
      env: outsideEnv(),
      timeout: 300_000,
    });
  }

  /** Type-checks and compiles with the repository's TypeScript (a tool, not something imported). */
  tsc(project: string): Promise<Output> {
    return run(process.execPath, [TSC, '-p', project], {
      cwd: this.dir,
      env: outsideEnv(),
      timeout: 300_000,
    });
  }

  node(file: string, ...args: string[]): Promise<Output> {
    return run(process.execPath, [file, ...args], { cwd: this.dir, env: outsideEnv(), timeout: 120_000 });
  }
}

/** `npm pack` of a workspace package into `destination`; the tarball's path and the files in it. */
export async function pack(
  packageDir: string,
  destination: string,
): Promise<{ tarball: string; files: string[] }> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: packageDir,
    env: outsideEnv(),
    timeout: 300_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
    filename: string;
    files: { path: string }[];
  }[];
  return { tarball: join(destination, packed.filename), files: packed.files.map((file) => file.path) };
}
