// `npm run migrate` / `cts migrate` / the Kubernetes migrations Job: applies every service's pending
// migrations to DATABASE_URL (or to the one-process mode's embedded database under CTS_DATA_DIR).

import { loadPersistence, loadPlatform, loadRuntime, loadServiceApp, SERVICE_APPS } from './apps.mjs';
import { buildIfPossible } from './projects.mjs';

await buildIfPossible();
const { loadConfig } = loadPlatform();
const { dataSourceFor } = loadRuntime();
const { runMigrations, startEmbeddedPostgres } = loadPersistence();
const config = loadConfig();
const embedded = config.DATABASE_URL ? undefined : await startEmbeddedPostgres(config.CTS_DATA_DIR);
const url = config.DATABASE_URL ?? embedded.url;
let failed = false;
try {
  for (const name of SERVICE_APPS) {
    const definition = Object.values(loadServiceApp(name)).find((value) => value && value.schema);
    const applied = await runMigrations(dataSourceFor(definition, url), definition.schema);
    console.log(`${definition.schema}: ${applied.length ? applied.join(', ') : 'up to date'}`);
  }
} catch (error) {
  failed = true;
  console.error('migration failed:', error);
} finally {
  await embedded?.stop();
}
process.exit(failed ? 1 : 0);
