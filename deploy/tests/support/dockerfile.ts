import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * What an image build sees of the repository, read from the files themselves (no Docker engine on
 * our machines): the Dockerfile's instructions, the paths npm installs from the build context, and
 * the .dockerignore patterns.
 */
export interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions in order; continuation lines joined, comments and parser directives dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

export interface CopiedPath {
  /** Context-relative source, normalised (`vendor`, `package.json`). */
  source: string;
  /** Absolute destination in the image, as Docker resolves it against WORKDIR. */
  destination: string;
  /** Several sources, or a destination ending in `/`: files land inside it under their own name. */
  intoDirectory: boolean;
}

export interface BuildBeforeInstall {
  /** WORKDIR when `npm ci` runs. */
  workdir: string;
  copies: CopiedPath[];
}

const words = (args: string): string[] =>
  args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/).filter(Boolean);

/**
 * The context files COPY/ADD put in the image before the first `RUN … npm ci` (or `npm install`),
 * and the WORKDIR it runs in; `undefined` when no RUN installs packages. `COPY --from` is not the
 * build context and is skipped; wildcard sources are not expanded (none of ours has one).
 */
export function copiedBeforeInstall(instructions: Instruction[]): BuildBeforeInstall | undefined {
  let workdir = '/';
  const copies: CopiedPath[] = [];
  for (const { keyword, args } of instructions) {
    if (keyword === 'FROM') {
      workdir = '/';
      copies.length = 0;
    } else if (keyword === 'WORKDIR') {
      workdir = posix.resolve(workdir, args);
    } else if (keyword === 'RUN' && /\bnpm\s+(ci|install|i)\b/.test(args)) {
      return { workdir, copies };
    } else if (keyword === 'COPY' || keyword === 'ADD') {
      const all = words(args);
      if (all.some((word) => word.startsWith('--from'))) {
        continue;
      }
      const operands = all.filter((word) => !word.startsWith('--'));
      const target = operands.pop() ?? '';
      for (const source of operands) {
        copies.push({
          source: posix.normalize(source).replace(/\/$/, ''),
          destination: posix.resolve(workdir, target),
          intoDirectory: operands.length > 1 || target.endsWith('/') || target === '.',
        });
      }
    }
  }
  return undefined;
}

/** Where a context path lands in the image through one COPY, or undefined when it does not. */
function landing(copy: CopiedPath, path: string, contextDir: string): string | undefined {
  const sourcePath = join(contextDir, copy.source);
  const isDirectory = copy.source === '.' || (existsSync(sourcePath) && statSync(sourcePath).isDirectory());
  if (isDirectory) {
    // Docker copies a directory's contents, not the directory: `COPY vendor ./` empties it into ./.
    if (copy.source === '.') {
      return posix.join(copy.destination, path);
    }
    if (path === copy.source || path.startsWith(`${copy.source}/`)) {
      return posix.join(copy.destination, path.slice(copy.source.length));
    }
    return undefined;
  }
  if (path !== copy.source) {
    return undefined;
  }
  return copy.intoDirectory ? posix.join(copy.destination, posix.basename(path)) : copy.destination;
}

/** The paths of `required` that are not at `<workdir>/<path>` when `npm ci` runs. */
export function missingBeforeInstall(
  build: BuildBeforeInstall,
  required: readonly string[],
  contextDir: string,
): string[] {
  return required.filter((path) => {
    const expected = posix.join(build.workdir, path);
    return !build.copies.some((copy) => landing(copy, path, contextDir) === expected);
  });
}

/** Every `file:` spec anywhere in package.json's dependency maps and overrides, as a path. */
function fileSpecs(node: unknown, found: Set<string>): Set<string> {
  if (typeof node === 'string' && node.startsWith('file:')) {
    found.add(posix.normalize(node.slice('file:'.length)));
  } else if (typeof node === 'object' && node !== null) {
    for (const value of Object.values(node)) {
      fileSpecs(value, found);
    }
  }
  return found;
}

interface PackageJson {
  workspaces?: string[];
  [section: string]: unknown;
}

interface PackageLock {
  packages: Record<string, { resolved?: string; dependencies?: Record<string, string> }>;
}

/**
 * What `npm ci` installs from the context: `file:` specs of package.json (dependencies, overrides)
 * and package-lock.json (`resolved`), and the workspace folders (the static part of each pattern).
 */
export function localInstallPaths(repoRoot: string): { fileDependencies: string[]; workspaces: string[] } {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as PackageJson;
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as PackageLock;
  const sections = ['dependencies', 'devDependencies', 'optionalDependencies', 'overrides'];
  const found = new Set<string>();
  for (const section of sections) {
    fileSpecs(pkg[section], found);
  }
  for (const entry of Object.values(lock.packages)) {
    fileSpecs(entry.resolved, found);
    fileSpecs(entry.dependencies, found);
  }
  const workspaces = (pkg.workspaces ?? []).map((pattern) => pattern.split('/*')[0] ?? pattern);
  return { fileDependencies: [...found].sort(), workspaces };
}

const escapeRegExp = (text: string): string => text.replace(/[.+^${}()|[\]\\]/g, '\\$&');

/** A .dockerignore pattern: `**` any folders, `*` and `?` within one path segment. */
const globToRegExp = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .split('**')
      .map((part) =>
        part
          .split('*')
          .map((piece) => piece.split('?').map(escapeRegExp).join('[^/]'))
          .join('[^/]*'),
      )
      .join('.*')}$`,
  );

/** Whether .dockerignore keeps `path` (or a folder above it) out of the context; last match wins. */
export function dockerIgnores(dockerignore: string, path: string): boolean {
  const patterns = dockerignore
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const parts = path.split('/');
  const candidates = parts.map((_, index) => parts.slice(0, index + 1).join('/'));
  let ignored = false;
  for (const line of patterns) {
    const negated = line.startsWith('!');
    const pattern = globToRegExp(posix.normalize(negated ? line.slice(1) : line).replace(/^\/|\/$/g, ''));
    if (candidates.some((candidate) => pattern.test(candidate))) {
      ignored = !negated;
    }
  }
  return ignored;
}
