// The workspace's projects: every folder under apps/ and libs/ that has a project.json.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

export function listProjects() {
  return ['apps', 'libs'].flatMap((kind) =>
    readdirSync(join(repoRoot, kind))
      .filter((name) => existsSync(join(repoRoot, kind, name, 'project.json')))
      .map((name) => {
        const config = JSON.parse(readFileSync(join(repoRoot, kind, name, 'project.json'), 'utf8'));
        return { name: config.name, root: `${kind}/${name}`, kind };
      }),
  );
}

/** Builds what changed; in a production image (no swc: dev dependencies pruned) uses dist as it is. */
export async function buildIfPossible() {
  try {
    const { build } = await import('./build.mjs');
    return await build();
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('@swc/core')) return 0;
    throw error;
  }
}
