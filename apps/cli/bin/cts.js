#!/usr/bin/env node
'use strict';
// The compiled CLI lives in dist/ (swc build); this shim only finds it.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const entry = join(__dirname, '..', '..', '..', 'dist', 'apps', 'cli', 'main.js');
if (!existsSync(entry)) {
  process.stderr.write(`cts: ${entry} not found — run npm run build first (or: node tools/build.mjs cli)\n`);
  process.exit(1);
}
require(entry);
