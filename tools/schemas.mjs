// Regenerates docs/schemas/<event>.v<version>.json from the zod event contracts (libs/contracts).
// Usage: npm run schemas
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from './build.mjs';
import { repoRoot } from './projects.mjs';

await build();
const contracts = createRequire(import.meta.url)(join(repoRoot, 'dist/libs/contracts'));
const files = contracts.eventJsonSchemas(Object.values(contracts).filter(contracts.isEventContract));
const dir = join(repoRoot, 'docs/schemas');
mkdirSync(dir, { recursive: true });
for (const file of readdirSync(dir)) rmSync(join(dir, file));
for (const [file, schema] of Object.entries(files))
  writeFileSync(join(dir, file), `${JSON.stringify(schema, null, 2)}\n`);
console.log(`wrote ${Object.keys(files).length} schemas to ${dir}`);
