// Compiles every project's src/ with swc into dist/<root>/ (CommonJS, decorator metadata on).
// Type checking is separate (`npm run typecheck`); this is the fast emit step, incremental by mtime.
// Usage: node tools/build.mjs [project…]
import { transformFile } from '@swc/core';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildNativeProofEngine } from './build-native.mjs';
import { listProjects, repoRoot } from './projects.mjs';

const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;
const swcrc = JSON.parse(readFileSync(join(repoRoot, '.swcrc'), 'utf8'));

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !TEST_FILE.test(entry.name))
      yield path;
    else if (/\.(json|sql|html|css|js)$/.test(entry.name)) yield path;
  }
}

function isFresh(source, output) {
  return existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs;
}

async function compileFile(source, srcRoot, outRoot) {
  const rel = relative(srcRoot, source);
  const isTs = source.endsWith('.ts');
  const output = join(outRoot, isTs ? rel.replace(/\.ts$/, '.js') : rel);
  if (isFresh(source, output)) return false;
  mkdirSync(dirname(output), { recursive: true });
  if (!isTs) {
    writeFileSync(output, readFileSync(source));
    return true;
  }
  const { code, map } = await transformFile(source, {
    ...swcrc,
    swcrc: false,
    filename: source,
    sourceFileName: relative(dirname(output), source),
  });
  writeFileSync(output, `${code}\n//# sourceMappingURL=${output.split('/').pop()}.map\n`);
  if (map) writeFileSync(`${output}.map`, map);
  return true;
}

export async function build(names = []) {
  // The native proof engine first (when cargo is here): a no-op unless the crate changed.
  if (names.length === 0 || names.includes('ledger')) buildNativeProofEngine();
  const projects = listProjects().filter((p) => names.length === 0 || names.includes(p.name));
  let compiled = 0;
  for (const project of projects) {
    const srcRoot = join(repoRoot, project.root, 'src');
    if (!existsSync(srcRoot)) continue;
    const outRoot = join(repoRoot, 'dist', project.root);
    const results = await Promise.all([...sourceFiles(srcRoot)].map((f) => compileFile(f, srcRoot, outRoot)));
    compiled += results.filter(Boolean).length;
  }
  // The SDK package (JS only; `npm pack` adds the declarations), then the dashboard (static files
  // the gateway serves, bundled with the gateway) which uses its browser build.
  if (names.length === 0 || names.includes('sdk') || names.includes('gateway')) {
    const { buildSdkPackage } = await import('../libs/sdk/build.mjs');
    await buildSdkPackage();
  }
  if (names.length === 0 || names.includes('gateway')) {
    const { buildDashboard } = await import('../apps/dashboard-ui/build.mjs');
    compiled += (await buildDashboard()).modules;
  }
  return compiled;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const compiled = await build(process.argv.slice(2));
  console.log(`build: ${compiled} file(s) compiled in ${Date.now() - started} ms`);
}
