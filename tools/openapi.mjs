// Regenerates docs/openapi.json from the built gateway (no database, broker or cache: the document
// comes from the controllers over in-memory stand-ins). `--check` fails when the checked-in file
// differs instead of writing it (for CI).
// Usage: node tools/openapi.mjs [--check]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from './build.mjs';
import { repoRoot } from './projects.mjs';

const target = join(repoRoot, 'docs', 'openapi.json');
const check = process.argv.includes('--check');

await build();
const require = createRequire(import.meta.url);
const { createOpenApiDocument } = require(join(repoRoot, 'dist/apps/gateway/openapi/openapi.export.js'));
const text = `${JSON.stringify(await createOpenApiDocument(), null, 2)}\n`;

if (check) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== text) {
    console.error('docs/openapi.json is out of date: run `npm run openapi` and commit the result');
    process.exit(1);
  }
  console.log('docs/openapi.json is up to date');
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
