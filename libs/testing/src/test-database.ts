import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function requireDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error(
      'DATABASE_URL is not set: run integration tests through npm test or deploy/local/with-infra.mjs',
    );
  }
  return url;
}

/**
 * A fresh database on the test PostgreSQL for one suite, so suites never see each other's rows.
 * Refuses to work on a server whose database name does not say it is for tests.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = new URL(requireDatabaseUrl());
  if (!serverUrl.pathname.includes('test')) {
    throw new Error(`Refusing to create test databases next to ${serverUrl.pathname}: its name lacks "test"`);
  }
  const name = `cts_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: serverUrl.toString() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
