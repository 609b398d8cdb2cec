import { defineEvent } from '@cts/contracts';
import { createTestDatabase, type TestDatabase } from '@cts/testing';
import { type DataSource } from 'typeorm';
import { z } from 'zod';
import { createServiceDataSource } from './data-source';
import { createOutboxInboxTables } from './outbox-inbox.schema';
import { UnitOfWork } from './unit-of-work';

const ItemAdded = defineEvent('test.items', 'item.added', z.object({ item_id: z.string() }));
const context = { correlationId: 'corr-1', environment: 'test' as const, accountId: null };

describe('UnitOfWork.insertWithEvent (real PostgreSQL)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let unitOfWork: UnitOfWork;
  let commits = 0;
  const insert = (id: string) => ({ sql: 'INSERT INTO "uow"."items" (id) VALUES ($1)', parameters: [id] });
  const outbox = (): Promise<{ key: string; topic: string; envelope: unknown }[]> =>
    dataSource.query('SELECT key, topic, envelope FROM "uow"."outbox" ORDER BY key');
  const items = () => dataSource.query('SELECT id FROM "uow"."items" ORDER BY id');

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createServiceDataSource({ schema: 'uow', url: db.url, entities: [], migrations: [] });
    await dataSource.initialize();
    await dataSource.query('CREATE SCHEMA IF NOT EXISTS "uow"');
    await dataSource.query('CREATE TABLE "uow"."items" (id text PRIMARY KEY)');
    const runner = dataSource.createQueryRunner();
    await createOutboxInboxTables(runner, 'uow');
    await runner.release();
    unitOfWork = new UnitOfWork(dataSource, 'uow');
    unitOfWork.onEventsCommitted(() => (commits += 1));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('writes the row and its event in one statement, and wakes the relay', async () => {
    const envelope = await unitOfWork.insertWithEvent(insert('a'), ItemAdded, 'a', { item_id: 'a' }, context);
    expect(await items()).toEqual([{ id: 'a' }]);
    expect(await outbox()).toEqual([
      { key: 'a', topic: 'test.items', envelope: JSON.parse(JSON.stringify(envelope)) },
    ]);
    expect(envelope).toMatchObject({ type: 'item.added', payload: { item_id: 'a' } });
    expect(commits).toBe(1);
  });

  it('writes neither when the row is refused, and passes the constraint error on', async () => {
    await expect(
      unitOfWork.insertWithEvent(insert('a'), ItemAdded, 'a-again', { item_id: 'a' }, context),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await items()).toEqual([{ id: 'a' }]);
    expect((await outbox()).map((row) => row.key)).toEqual(['a']);
    expect(commits).toBe(1);
  });

  it('refuses a payload its event contract does not accept before writing anything', async () => {
    await expect(
      unitOfWork.insertWithEvent(insert('b'), ItemAdded, 'b', { item_id: 7 } as never, context),
    ).rejects.toThrow();
    expect(await items()).toEqual([{ id: 'a' }]);
  });

  describe('changeWithEvent', () => {
    const rename = (from: string, to: string) => ({
      with: 'changed AS (UPDATE "uow"."items" SET id = $2 WHERE id = $1 RETURNING id)',
      parameters: [from, to],
    });

    it('makes the change and writes its event in one statement, and wakes the relay', async () => {
      await dataSource.query(`INSERT INTO "uow"."items" (id) VALUES ('c')`);
      const before = commits;
      const envelope = await unitOfWork.changeWithEvent(
        rename('c', 'c2'),
        ItemAdded,
        'c2',
        { item_id: 'c2' },
        context,
      );
      expect(envelope).toMatchObject({ type: 'item.added', payload: { item_id: 'c2' } });
      expect(await items()).toContainEqual({ id: 'c2' });
      expect((await outbox()).map((row) => row.key)).toContain('c2');
      expect(commits).toBe(before + 1);
    });

    it('writes no event and answers null when the change does not happen', async () => {
      const before = commits;
      const envelope = await unitOfWork.changeWithEvent(
        rename('missing', 'x2'),
        ItemAdded,
        'x2',
        { item_id: 'x2' },
        context,
      );
      expect(envelope).toBeNull();
      expect((await outbox()).map((row) => row.key)).not.toContain('x2');
      expect(commits).toBe(before);
    });

    it('writes neither when the change is refused, and passes the constraint error on', async () => {
      await expect(
        unitOfWork.changeWithEvent(rename('c2', 'a'), ItemAdded, 'dup', { item_id: 'a' }, context),
      ).rejects.toMatchObject({ code: '23505' });
      expect(await items()).toContainEqual({ id: 'c2' });
      expect((await outbox()).map((row) => row.key)).not.toContain('dup');
    });
  });
});
