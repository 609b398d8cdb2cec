// Prints the SQL that would bring a fresh, migrated schema in line with an app's entities: the body
// of the next migration. Usage: node tools/migration-sql.mjs <app>   (builds first; uses DATABASE_URL
// or a throwaway embedded PostgreSQL).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from './build.mjs';
import { repoRoot } from './projects.mjs';

const app = process.argv[2];
if (!app) {
  console.error('usage: node tools/migration-sql.mjs <app>');
  process.exit(2);
}
await build();
const require = createRequire(import.meta.url);
const { startEmbeddedPostgres, runMigrations, pendingSchemaChanges } = require(
  join(repoRoot, 'dist/libs/persistence'),
);
const { dataSourceFor } = require(join(repoRoot, 'dist/libs/runtime'));
const definition = Object.values(require(join(repoRoot, 'dist/apps', app, `${app}.js`))).find(
  (v) => v && v.schema,
);

const dir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'cts-migration-sql-'));
const pg = dir ? await startEmbeddedPostgres(dir) : undefined;
try {
  const dataSource = dataSourceFor(definition, process.env.DATABASE_URL ?? pg.url);
  await dataSource.initialize();
  await runMigrations(dataSource, definition.schema);
  for (const sql of await pendingSchemaChanges(dataSource)) console.log(`${sql};`);
  await dataSource.destroy();
} finally {
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
