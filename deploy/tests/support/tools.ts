import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * The external programs the deploy tests run, each a maintained tool from a package registry:
 * Helm (Go module helm.sh/helm/v4), kubernetes-validate and check-jsonschema (PyPI). A missing
 * one fails the tests with the line that installs it: a skipped validation would pass silently.
 */
export interface Tool {
  name: string;
  /** Environment variable that may name the binary. */
  env: string;
  install: string;
  /** Where the installer puts it when that is not on PATH. */
  extraDirs: string[];
}

const goBin = join(process.env.GOPATH ?? join(homedir(), 'go'), 'bin');

export const HELM: Tool = {
  name: 'helm',
  env: 'HELM_BIN',
  install: 'GOBIN=/usr/local/bin go install helm.sh/helm/v4/cmd/helm@v4.3.1',
  extraDirs: [goBin],
};

export const KUBERNETES_VALIDATE: Tool = {
  name: 'kubernetes-validate',
  env: 'KUBERNETES_VALIDATE_BIN',
  install: 'pip install kubernetes-validate==1.37.0',
  extraDirs: [],
};

export const CHECK_JSONSCHEMA: Tool = {
  name: 'check-jsonschema',
  env: 'CHECK_JSONSCHEMA_BIN',
  install: 'pip install check-jsonschema==0.39.0',
  extraDirs: [],
};

export function toolPath(tool: Tool): string {
  const fromEnv = process.env[tool.env];
  if (fromEnv) {
    return fromEnv;
  }
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...tool.extraDirs].filter(Boolean);
  const found = dirs.map((dir) => join(dir, tool.name)).find((path) => existsSync(path));
  if (!found) {
    throw new Error(`${tool.name} not found (PATH, ${tool.env}): install it with \`${tool.install}\``);
  }
  return found;
}

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function run(tool: Tool, args: string[], options: { cwd?: string } = {}): RunResult {
  const result = spawnSync(toolPath(tool), args, {
    cwd: options.cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) {
    throw result.error;
  }
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the tool and returns its stdout; a non-zero exit throws with its output. */
export function runOk(tool: Tool, args: string[], options: { cwd?: string } = {}): string {
  const result = run(tool, args, options);
  if (result.status !== 0) {
    throw new Error(
      `${tool.name} ${args.join(' ')} exited ${result.status}:\n${result.stderr}${result.stdout}`,
    );
  }
  return result.stdout;
}
