// Runs the TypeScript proof worker straight from sources (jest, ts-based tooling), where no compiled
// proof-worker.js sits next to the pool. Compiles .ts on require with @swc/core (a dev dependency) and
// maps the @cts/* workspace aliases to their sources, as jest's moduleNameMapper does. Never used from dist.
'use strict';
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { workerData } = require('node:worker_threads');
const { transformSync } = require('@swc/core');

const { entry, libsRoot } = workerData.bootstrap;
const swcOptions = {
  swcrc: false,
  configFile: false,
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

Module._extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...swcOptions, filename });
  module._compile(code, filename);
};

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveWorkspaceAlias(request, ...rest) {
  const alias = /^@cts\/([a-z-]+)$/.exec(request);
  const target = alias ? join(libsRoot, alias[1], 'src', 'index.ts') : request;
  return resolveFilename.call(this, target, ...rest);
};

require(entry);
