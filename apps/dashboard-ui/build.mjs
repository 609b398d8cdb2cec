// Builds the dashboard's browser files into dist/apps/dashboard-ui/, where the gateway serves them at
// /dashboard/. Usage: node apps/dashboard-ui/build.mjs
//
// A small bundler on top of swc: every module reachable from src/main.ts (our code, the SDK's
// browser build — the published package's own dist/browser.mjs, built by libs/sdk/build.mjs —,
// @noble/*, @scure/base) is compiled to CommonJS and wrapped in a function; a 15-line loader calls
// them. No eval, no inline script: the result runs under `script-src 'self'`. zk-sdk's web build (an
// ES module plus its WASM, shipped in the SDK package) is copied beside it as is and imported when
// the page first decrypts.
import { minify, transformFile } from '@swc/core';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '../..');
export const DASHBOARD_OUT_DIR = join(repoRoot, 'dist/apps/dashboard-ui');
const ENTRY = join(here, 'src/main.ts');
const STATIC_FILES = ['index.html', 'dashboard.css', 'favicon.svg'];
const SDK_PACKAGE = join(repoRoot, 'libs/sdk');
const CONDITIONS = ['browser', 'import', 'default'];

function firstExisting(candidates) {
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

function pickTarget(target) {
  if (typeof target === 'string' || target === null) {
    return target;
  }
  const condition = CONDITIONS.find((name) => name in target);
  return condition ? pickTarget(target[condition]) : null;
}

function resolvePackage(request) {
  const parts = request.split('/');
  const name = request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const subpath = `.${request.slice(name.length)}`;
  const root = name === '@cts/sdk' ? SDK_PACKAGE : join(repoRoot, 'node_modules', name);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const exportsMap =
    typeof manifest.exports === 'object' && !('.' in manifest.exports) && subpath === '.'
      ? { '.': manifest.exports }
      : manifest.exports;
  const target = exportsMap
    ? pickTarget(exportsMap[subpath])
    : subpath === '.'
      ? (manifest.module ?? manifest.main)
      : subpath;
  if (!target) {
    throw new Error(`cannot resolve ${request} for the browser`);
  }
  return join(root, target);
}

function resolveRequest(request, fromFile) {
  if (request.startsWith('node:')) {
    throw new Error(`${relative(repoRoot, fromFile)} needs ${request}, which browsers do not have`);
  }
  let file;
  if (request.startsWith('.')) {
    const base = join(dirname(fromFile), request);
    file = firstExisting([base, `${base}.ts`, join(base, 'index.ts')]);
  } else if (request.startsWith('@cts/') && request !== '@cts/sdk') {
    throw new Error(
      `${relative(repoRoot, fromFile)} imports ${request}: the dashboard uses only the SDK package`,
    );
  } else {
    file = resolvePackage(request);
  }
  if (!file || !existsSync(file)) {
    throw new Error(`cannot resolve ${request} from ${relative(repoRoot, fromFile)}`);
  }
  return file;
}

async function compileModule(file) {
  const isTs = file.endsWith('.ts');
  const { code } = await transformFile(file, {
    swcrc: false,
    sourceMaps: false,
    jsc: {
      parser: isTs ? { syntax: 'typescript' } : { syntax: 'ecmascript' },
      target: 'es2022',
      transform: { optimizer: { globals: { envs: { NODE_ENV: 'production' } } } },
    },
    // import() stays native: zk-sdk's web build is a real ES module fetched at run time.
    module: { type: 'commonjs', strictMode: true, importInterop: 'swc', ignoreDynamic: true },
  });
  return code;
}

const REQUIRE_CALL = /\brequire\((["'])([^"'\\]+)\1\)/g;

async function collectModules(entry) {
  const modules = new Map();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop();
    if (modules.has(file)) {
      continue;
    }
    const code = await compileModule(file);
    const dependencies = {};
    for (const [, , request] of code.matchAll(REQUIRE_CALL)) {
      const resolved = resolveRequest(request, file);
      dependencies[request] = relative(repoRoot, resolved);
      pending.push(resolved);
    }
    modules.set(file, { code, dependencies });
  }
  return modules;
}

const LOADER = `
const cache = new Map();
function load(id) {
  const cached = cache.get(id);
  if (cached) return cached.exports;
  const [factory, dependencies] = definitions[id];
  const module = { exports: {} };
  cache.set(id, module);
  factory.call(module.exports, module, module.exports, (request) => load(dependencies[request]));
  return module.exports;
}
`;

function bundleSource(modules, entry) {
  const definitions = [...modules].map(
    ([file, { code, dependencies }]) =>
      `${JSON.stringify(relative(repoRoot, file))}: [function (module, exports, require) {\n${code}\n}, ${JSON.stringify(dependencies)}]`,
  );
  return `const definitions = {\n${definitions.join(',\n')}\n};\n${LOADER}\nload(${JSON.stringify(relative(repoRoot, entry))});\n`;
}

function copyIfChanged(source, target) {
  if (!existsSync(target) || statSync(target).mtimeMs < statSync(source).mtimeMs) {
    copyFileSync(source, target);
  }
}

// The modules of the last build, to skip the next one when none of them (nor this script) changed.
const INPUTS_FILE = '.inputs.json';

function bundleIsFresh(outDir) {
  const bundle = join(outDir, 'dashboard.js');
  const inputsFile = join(outDir, INPUTS_FILE);
  if (!existsSync(bundle) || !existsSync(inputsFile)) {
    return false;
  }
  const builtAt = statSync(bundle).mtimeMs;
  const inputs = [
    fileURLToPath(import.meta.url),
    ...JSON.parse(readFileSync(inputsFile, 'utf8')).map((file) => join(repoRoot, file)),
  ];
  return inputs.every((file) => existsSync(file) && statSync(file).mtimeMs <= builtAt);
}

/**
 * Builds the dashboard into `outDir` (the bundle only when one of its modules changed); returns how
 * many modules it bundled (0 when it was up to date) and the bundle's size.
 */
export async function buildDashboard(outDir = DASHBOARD_OUT_DIR) {
  mkdirSync(outDir, { recursive: true });
  for (const name of STATIC_FILES) {
    copyIfChanged(join(here, name), join(outDir, name));
  }
  copyIfChanged(join(SDK_PACKAGE, 'dist/zk-sdk.js'), join(outDir, 'zk-sdk.js'));
  copyIfChanged(join(SDK_PACKAGE, 'dist/zk-sdk.wasm'), join(outDir, 'zk-sdk.wasm'));
  if (bundleIsFresh(outDir)) {
    return { modules: 0, bytes: statSync(join(outDir, 'dashboard.js')).size };
  }
  const modules = await collectModules(ENTRY);
  const { code } = await minify(bundleSource(modules, ENTRY), {
    module: true,
    compress: { passes: 2 },
    mangle: true,
    ecma: 2022,
  });
  writeFileSync(join(outDir, 'dashboard.js'), code);
  writeFileSync(
    join(outDir, INPUTS_FILE),
    JSON.stringify([...modules.keys()].map((file) => relative(repoRoot, file))),
  );
  return { modules: modules.size, bytes: Buffer.byteLength(code) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const { modules, bytes } = await buildDashboard();
  const what = modules === 0 ? 'up to date' : `${modules} modules bundled`;
  console.log(`dashboard: ${what}, ${(bytes / 1024).toFixed(0)} KiB, in ${Date.now() - started} ms`);
}
