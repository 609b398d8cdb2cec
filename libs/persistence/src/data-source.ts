import { DataSource, type EntitySchema, type MixedList } from 'typeorm';
import { outboxInboxEntities } from './outbox-inbox.schema';

export interface ServiceDataSourceOptions {
  /** The Postgres schema this service owns (`accounts`, `transfers`, …). */
  schema: string;
  url: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: (Function | EntitySchema)[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function>;
  poolSize?: number;
}

/**
 * One DataSource per service schema. `synchronize` is off: the schema changes only through the
 * app's migrations, whose bookkeeping table lives in the service's own schema.
 */
export function createServiceDataSource(options: ServiceDataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: [...options.entities, ...outboxInboxEntities(options.schema)],
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    extra: { max: options.poolSize ?? 10 },
  });
}

/** Creates the schema if needed, then applies pending migrations. Safe to run concurrently (advisory lock). */
export async function runMigrations(dataSource: DataSource, schema: string): Promise<string[]> {
  const initialized = dataSource.isInitialized;
  if (!initialized) {
    await dataSource.initialize();
  }
  try {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`cts-migrations:${schema}`]);
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`cts-migrations:${schema}`]);
      await runner.release();
    }
  } finally {
    if (!initialized) {
      await dataSource.destroy();
    }
  }
}

/** SQL that would bring the database in line with the entities: empty when migrations and entities agree. */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((q) => q.query);
}
