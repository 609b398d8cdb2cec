import { createTestDatabase, type TestDatabase } from '@cts/testing';
import { type DataSource } from 'typeorm';
import { createServiceDataSource } from './data-source';
import { PreparedStatement } from './prepared-statement';

const PREPARED = `SELECT name FROM pg_prepared_statements WHERE name = 'test.add'`;

describe('PreparedStatement (real PostgreSQL)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const add = new PreparedStatement<{ sum: number }>('test.add', 'SELECT $1::int + $2::int AS sum');

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createServiceDataSource({ schema: 'public', url: db.url, entities: [], migrations: [] });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('runs inside a transaction on its connection, as a statement the server keeps prepared', async () => {
    await dataSource.transaction(async (manager) => {
      expect(await add.run(manager, [2, 3])).toEqual([{ sum: 5 }]);
      expect(await add.run(manager, [4, 5])).toEqual([{ sum: 9 }]);
      expect(await manager.query(PREPARED)).toEqual([{ name: 'test.add' }]);
    });
  });

  it('sees what its transaction wrote before committing', async () => {
    await dataSource.query('CREATE TABLE seen (n int)');
    const count = new PreparedStatement<{ n: number }>(
      'test.count_seen',
      'SELECT count(*)::int AS n FROM seen',
    );
    await dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO seen VALUES (1)');
      expect(await count.run(manager, [])).toEqual([{ n: 1 }]);
      await manager.query('DELETE FROM seen');
    });
  });

  it('runs on a pooled connection of a DataSource, and of a manager without a transaction', async () => {
    expect(await add.run(dataSource, [1, 1])).toEqual([{ sum: 2 }]);
    expect(await add.run(dataSource.manager, [1, 2])).toEqual([{ sum: 3 }]);
  });

  it('passes the server’s errors on with their code', async () => {
    const failing = new PreparedStatement('test.divide', 'SELECT 1 / $1::int AS quotient');
    await expect(failing.run(dataSource, [0])).rejects.toMatchObject({ code: '22012' });
    expect(await failing.run(dataSource, [1])).toEqual([{ quotient: 1 }]);
  });

  it('names a composed statement after its text: one name per text, kept prepared by the server', async () => {
    const text = (table: string) => `SELECT count(*)::int AS n FROM ${table} WHERE $1::int > 0`;
    const first = PreparedStatement.of<{ n: number }>(text('pg_class'));
    expect(PreparedStatement.of(text('pg_class'))).toBe(first);
    expect(PreparedStatement.of(text('pg_namespace')).name).not.toBe(first.name);
    await dataSource.transaction(async (manager) => {
      await first.run(manager, [1]);
      await PreparedStatement.of(text('pg_class')).run(manager, [1]);
      expect(
        await manager.query(`SELECT statement FROM pg_prepared_statements WHERE name = $1`, [first.name]),
      ).toEqual([{ statement: text('pg_class') }]);
    });
  });
});
