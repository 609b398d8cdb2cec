import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { CHART_DIR } from './support/chart';

const readme = readFileSync(join(CHART_DIR, 'README.md'), 'utf8');
const values = load(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'));

/** Every leaf path of values.yaml (an empty map or list is a leaf). */
function leafPaths(node: unknown, path: string[] = []): string[][] {
  if (node !== null && typeof node === 'object' && !Array.isArray(node) && Object.keys(node).length > 0) {
    return Object.entries(node).flatMap(([key, child]) => leafPaths(child, [...path, key]));
  }
  return [path];
}

/**
 * A value is documented when README.md names it, or the map holding it, in backticks: `a.b`, at least
 * two levels deep (`apps.<app>.x` or `apps.gateway.x` for apps: three).
 */
function isDocumented(path: string[]): boolean {
  const shortest = Math.min(path.length, path[0] === 'apps' ? 3 : 2);
  const spellings = path[0] === 'apps' ? [path, ['apps', '<app>', ...path.slice(2)]] : [path];
  return spellings.some((spelling) =>
    spelling
      .map((_, index) => spelling.slice(0, index + 1).join('.'))
      .slice(shortest - 1)
      .some((prefix) => readme.includes(`\`${prefix}\``)),
  );
}

describe('the chart README', () => {
  it('documents every value of values.yaml', () => {
    const undocumented = leafPaths(values)
      .filter((path) => !isDocumented(path))
      .map((path) => path.join('.'));
    expect(undocumented).toEqual([]);
  });
});
