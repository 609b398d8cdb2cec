import { type Runtime } from '@cts/runtime';
import { createServiceDataSource } from '@cts/persistence';
import { createTestDatabase, type TestDatabase } from '@cts/testing';
import { type DataSource } from 'typeorm';
import { AccountLocks, LOCK_CONNECTIONS, LOCK_LINGER_MS } from './account-locks';

const ADVISORY_LOCKS = `SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory'`;

/** Resolves when `release` is called: work that holds its lock until the test lets it go. */
function held(): { work: () => Promise<void>; started: Promise<void>; release: () => void } {
  let release = () => {};
  let started = () => {};
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    work: () => {
      started();
      return done;
    },
    started: startedPromise,
    release,
  };
}

describe('AccountLocks (real PostgreSQL)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createServiceDataSource({ schema: 'public', url: db.url, entities: [], migrations: [] });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const created: AccountLocks[] = [];
  const locksOn = (on: DataSource, runtime?: Runtime) => {
    const locks = new AccountLocks(on, runtime);
    created.push(locks);
    return locks;
  };

  afterEach(async () => {
    await Promise.all(created.splice(0).map((locks) => locks.onModuleDestroy()));
  });

  /** A second run of `key` starts only once the first, still holding it, is released. */
  const expectSecondAfterFirst = async (
    locks: AccountLocks,
    key: string,
    releaseFirst: () => void,
    first: Promise<unknown>,
  ) => {
    const order: string[] = [];
    const second = locks.run(key, () => {
      order.push('second');
      return Promise.resolve();
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.push('first released');
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first released', 'second']);
  };

  const heldAdvisoryLocks = async () =>
    ((await dataSource.query(ADVISORY_LOCKS)) as { held: number }[])[0]?.held;
  /** A run answers before its unlock is done: the locks left once every unlock has had time. */
  const locksLeftAfterUnlocks = async () => {
    for (let i = 0; i < 100 && (await heldAdvisoryLocks()) !== 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return heldAdvisoryLocks();
  };

  it('keeps two replicas on one database apart with an advisory lock', async () => {
    const replicaA = locksOn(dataSource);
    const replicaB = locksOn(dataSource);
    const first = held();
    const running = replicaA.run('settle:test:acct_a:USDC', first.work);
    await first.started;
    expect(await heldAdvisoryLocks()).toBe(1);
    expect(await replicaB.tryRun('settle:test:acct_a:USDC', () => Promise.resolve('ran'))).toBeUndefined();

    await expectSecondAfterFirst(replicaB, 'settle:test:acct_a:USDC', first.release, running);
    expect(await locksLeftAfterUnlocks()).toBe(0);
  });

  it("keeps a sender's lock for its next settlement in close succession, on the same connection, then lets it go", async () => {
    const locks = locksOn(dataSource);
    const holders = async () =>
      (
        (await dataSource.query(`SELECT pid FROM pg_locks WHERE locktype = 'advisory'`)) as { pid: number }[]
      ).map((row) => row.pid);
    const first = await locks.run('settle:test:acct_k:USDC', () => holders());
    // The next settlement right after runs under the same lock: no second lock was taken.
    const second = await locks.run('settle:test:acct_k:USDC', () => holders());
    expect(first).toEqual([expect.any(Number)]);
    expect(second).toEqual(first);

    await new Promise((resolve) => setTimeout(resolve, LOCK_LINGER_MS + 50));
    expect(await locksLeftAfterUnlocks()).toBe(0);
  });

  it('queues in memory only when the runtime owns its database, with no round trip for the lock', async () => {
    const locks = locksOn(dataSource, { ownsDatabase: true } as Runtime);
    const first = held();
    const running = locks.run('settle:test:acct_b:USDC', first.work);
    await first.started;
    expect(await heldAdvisoryLocks()).toBe(0);
    expect(await locks.tryRun('settle:test:acct_b:USDC', () => Promise.resolve('ran'))).toBeUndefined();
    expect(await locks.tryRun('settle:test:acct_c:USDC', () => Promise.resolve('ran'))).toBe('ran');

    await expectSecondAfterFirst(locks, 'settle:test:acct_b:USDC', first.release, running);
  });

  it('holds the key for work started by tryRun when the runtime owns its database', async () => {
    const locks = locksOn(dataSource, { ownsDatabase: true } as Runtime);
    const first = held();
    const running = locks.tryRun('settle:test:acct_d:USDC', first.work);
    await first.started;
    expect(await locks.tryRun('settle:test:acct_d:USDC', () => Promise.resolve('ran'))).toBeUndefined();
    first.release();
    await running;
    expect(await locks.tryRun('settle:test:acct_d:USDC', () => Promise.resolve('ran'))).toBe('ran');
  });

  it('settles more accounts at once than the service has connections, each lock on a connection of its own', async () => {
    const small = createServiceDataSource({
      schema: 'public',
      url: db.url,
      entities: [],
      migrations: [],
      poolSize: 2,
    });
    await small.initialize();
    try {
      const locks = locksOn(small);
      const accounts = Array.from(
        { length: LOCK_CONNECTIONS + 4 },
        (_, index) => `settle:test:acct_${index}:USDC`,
      );
      let most = 0;
      let holding = 0;
      const settled = await Promise.all(
        accounts.map((key) =>
          locks.run(key, async () => {
            holding += 1;
            most = Math.max(most, holding);
            // The settlement's own statements, on the service's pool.
            await small.query('SELECT pg_sleep(0.05)');
            holding -= 1;
            return key;
          }),
        ),
      );
      expect(settled).toEqual(accounts);
      expect(most).toBe(LOCK_CONNECTIONS);
      expect(await locksLeftAfterUnlocks()).toBe(0);
    } finally {
      await small.destroy();
    }
  });

  it('survives its lock connection being killed while the work runs (a database restart), and locks again', async () => {
    const locks = locksOn(dataSource);
    const first = held();
    const running = locks.run('settle:test:acct_lost:USDC', async () => {
      await first.work();
      return 'settled';
    });
    await first.started;
    await dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    first.release();
    expect(await running).toBe('settled');
    expect(await locks.run('settle:test:acct_lost:USDC', () => Promise.resolve('again'))).toBe('again');
    expect(await locksLeftAfterUnlocks()).toBe(0);
  });
});
