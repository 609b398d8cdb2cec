// Builds the publishable @cts/sdk into libs/sdk/dist/: `index.cjs` (require), `index.mjs` (import),
// `browser.mjs` (the browser build the dashboard uses) with zk-sdk's web build beside it, and with
// `--types` the declarations (`index.d.ts`, `index.d.mts`). Our own libraries (@cts/crypto) are
// bundled in; the package's `dependencies` (public npm packages) stay imports.
// Usage: node libs/sdk/build.mjs [--types]   (`npm pack` in libs/sdk runs it with --types)
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '../..');
export const SDK_DIST = join(here, 'dist');
const manifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const ZK_SDK = join(repoRoot, 'libs/crypto/src/zk-sdk.ts');
const LOAD_ZK_SDK = join(here, 'src/runtime/load-zk-sdk.ts');

/**
 * @cts/<lib> → its sources (bundled), and a module swapped for the target's own (see src/runtime/):
 * swapped at resolution, so every importer of a swapped module shares one instance of its stand-in.
 */
function workspacePlugin(substitutes) {
  return {
    name: 'cts-workspace',
    setup(build) {
      build.onResolve({ filter: /^@cts\/[a-z-]+$/ }, (args) => ({
        path: join(repoRoot, 'libs', args.path.slice('@cts/'.length), 'src/index.ts'),
      }));
      build.onResolve({ filter: /^\./ }, (args) => {
        const file = join(args.resolveDir, args.path);
        const substitute = substitutes.get(file) ?? substitutes.get(`${file}.ts`);
        return substitute ? { path: substitute } : undefined;
      });
    },
  };
}

const external = Object.keys(manifest.dependencies ?? {}).flatMap((name) => [name, `${name}/*`]);
const common = {
  entryPoints: [join(here, 'src/index.ts')],
  bundle: true,
  external,
  legalComments: 'none',
  logLevel: 'warning',
};
const nodeSubstitutes = new Map([[ZK_SDK, join(here, 'src/runtime/zk-sdk.node.ts')]]);
const browserZk = join(here, 'src/runtime/zk-sdk.browser.ts');
const browserSubstitutes = new Map([
  [ZK_SDK, browserZk],
  [LOAD_ZK_SDK, browserZk],
  [join(repoRoot, 'libs/crypto/src/aes-gcm.ts'), join(here, 'src/runtime/aes-gcm.browser.ts')],
]);

export async function buildSdkPackage({ types = false } = {}) {
  mkdirSync(SDK_DIST, { recursive: true });
  const node = { ...common, platform: 'node', target: 'node20', plugins: [workspacePlugin(nodeSubstitutes)] };
  await Promise.all([
    emit({ ...node, format: 'cjs', outfile: join(SDK_DIST, 'index.cjs') }),
    emit({ ...node, format: 'esm', outfile: join(SDK_DIST, 'index.mjs') }),
    emit({
      ...common,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      outfile: join(SDK_DIST, 'browser.mjs'),
      plugins: [workspacePlugin(browserSubstitutes)],
    }),
  ]);
  const zkWeb = join(repoRoot, 'node_modules/@solana/zk-sdk/dist/web');
  copyIfChanged(join(zkWeb, 'index.js'), join(SDK_DIST, 'zk-sdk.js'));
  copyIfChanged(join(zkWeb, 'index_bg.wasm'), join(SDK_DIST, 'zk-sdk.wasm'));
  if (types) {
    buildTypes();
  }
}

/**
 * Writes a build's files only where their bytes changed, so an unchanged SDK keeps its mtimes and
 * the dashboard, which bundles `browser.mjs`, is not rebuilt at every `npm start`.
 */
async function emit(options) {
  const { outputFiles } = await esbuild.build({ ...options, write: false });
  for (const file of outputFiles) {
    if (!existsSync(file.path) || !readFileSync(file.path).equals(file.contents)) {
      writeFileSync(file.path, file.contents);
    }
  }
}

function copyIfChanged(source, target) {
  try {
    if (statSync(target).mtimeMs >= statSync(source).mtimeMs) return;
  } catch {
    // not there yet
  }
  copyFileSync(source, target);
}

/**
 * tsc's declarations of the SDK and the workspace libraries it uses, under dist/types/, with
 * `@cts/<lib>` rewritten to relative paths so they need nothing outside the package.
 */
function buildTypes() {
  const outDir = join(SDK_DIST, 'types');
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', join(here, 'tsconfig.package.json')],
    {
      stdio: 'inherit',
    },
  );
  narrowWorkspaceIndexes(outDir);
  for (const file of declarationFiles(outDir)) {
    const text = readFileSync(file, 'utf8').replace(/(['"])@cts\/([a-z-]+)\1/g, (_, quote, lib) => {
      const target = relative(dirname(file), join(outDir, lib, 'src/index'));
      return `${quote}${target.startsWith('.') ? target : `./${target}`}${quote}`;
    });
    writeFileSync(file, text);
  }
  const entry = join(outDir, 'sdk/src/index.d.ts');
  pruneUnreachable(outDir, entry);
  writeFileSync(join(SDK_DIST, 'index.d.ts'), "export * from './types/sdk/src/index.js';\n");
  writeFileSync(join(SDK_DIST, 'index.d.mts'), "export * from './types/sdk/src/index.js';\n");
}

const WORKSPACE_IMPORT = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]@cts\/([a-z-]+)['"]/g;
const INLINE_WORKSPACE_IMPORT = /import\(['"]@cts\/([a-z-]+)['"]\)\.(\w+)/g;

/**
 * A workspace library's index re-exports all of it, and with it third-party types the SDK's API never
 * shows (zk-sdk's, @noble's). Those break consumers' type checks (skipLibCheck off): the
 * `@solana/zk-sdk/node` subpath does not resolve under `node10`, and an ESM-only @noble import in
 * these CommonJS-format declarations is TS1479 under `node16` and TypeScript < 5.8's `nodenext`. So
 * each library's index.d.ts is rewritten to re-export only the names the SDK's declarations import.
 */
function narrowWorkspaceIndexes(outDir) {
  const wanted = new Map();
  const want = (lib, name) => {
    if (lib === 'sdk') return;
    if (!wanted.has(lib)) wanted.set(lib, new Set());
    wanted.get(lib).add(name);
  };
  for (const file of declarationFiles(join(outDir, 'sdk'))) {
    const text = readFileSync(file, 'utf8');
    for (const [, names, lib] of text.matchAll(WORKSPACE_IMPORT)) {
      for (const name of names.split(',')) {
        const bare = name
          .replace(/^\s*type\s+/, '')
          .split(/\s+as\s+/)[0]
          .trim();
        if (bare) want(lib, bare);
      }
    }
    for (const [, lib, name] of text.matchAll(INLINE_WORKSPACE_IMPORT)) want(lib, name);
  }
  for (const [lib, names] of wanted) {
    const srcDir = join(outDir, lib, 'src');
    const byFile = new Map();
    for (const name of [...names].sort()) {
      const declaration = new RegExp(
        `^export (?:declare )?(?:abstract )?(?:class|function|const|let|interface|type|enum|namespace) ${name}\\b`,
        'm',
      );
      const found = [...declarationFiles(srcDir)].filter((file) =>
        declaration.test(readFileSync(file, 'utf8')),
      );
      if (found.length !== 1) {
        throw new Error(`@cts/${lib}: expected one declaration of ${name}, found ${found.length}`);
      }
      const module = `./${relative(srcDir, found[0]).replace(/\.d\.ts$/, '')}`;
      byFile.set(module, [...(byFile.get(module) ?? []), name]);
    }
    const lines = [...byFile].map(([module, list]) => `export { ${list.join(', ')} } from '${module}';`);
    writeFileSync(join(srcDir, 'index.d.ts'), `${lines.join('\n')}\n`);
  }
}

/**
 * Deletes the declarations the entry does not reach, and refuses any import that leaves the package:
 * the published types must check under every moduleResolution (see narrowWorkspaceIndexes).
 */
function pruneUnreachable(outDir, entry) {
  const reached = new Set();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g),
      ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ].map((match) => match[1]);
    for (const specifier of specifiers) {
      if (!specifier.startsWith('.')) {
        throw new Error(`${relative(outDir, file)} imports '${specifier}': published types must not`);
      }
      const base = join(dirname(file), specifier.replace(/\.js$/, ''));
      const target = [`${base}.d.ts`, join(base, 'index.d.ts')].find((path) => existsSync(path));
      if (target === undefined) throw new Error(`${relative(outDir, file)}: '${specifier}' not found`);
      pending.push(target);
    }
  }
  for (const file of [...declarationFiles(outDir)]) {
    if (!reached.has(file)) rmSync(file);
  }
}

function* declarationFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* declarationFiles(path);
    else if (entry.name.endsWith('.d.ts')) yield path;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  await buildSdkPackage({ types: process.argv.includes('--types') });
  console.log(`sdk package: built ${relative(repoRoot, SDK_DIST)} in ${Date.now() - started} ms`);
}
