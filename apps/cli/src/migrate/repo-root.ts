import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The monorepo root: the nearest ancestor whose package.json declares workspaces. Searched
 * rather than a fixed `../..` so it works from apps/cli/src (tests) and dist/apps/cli (build).
 */
export function findRepoRoot(start: string = __dirname): string | undefined {
  let dir = start;
  for (;;) {
    if (declaresWorkspaces(join(dir, 'package.json'))) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      return undefined;
    }
    dir = parent;
  }
}

function declaresWorkspaces(file: string): boolean {
  if (!existsSync(file)) {
    return false;
  }
  try {
    const manifest: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof manifest === 'object' && manifest !== null && 'workspaces' in manifest;
  } catch {
    return false;
  }
}
