import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import { RUNTIME, type Runtime } from '@cts/runtime';
import { Pool, type PoolClient } from 'pg';
import { DataSource } from 'typeorm';

/**
 * Advisory locks held at once by one replica. Each holds a connection of its own pool for as long as
 * its settlement runs, so holders never take the connections their work needs: with the service's
 * pool, ten accounts settling at once held all ten and waited for an eleventh for good.
 */
export const LOCK_CONNECTIONS = 8;
const IDLE_LOCK_CONNECTION_MS = 10_000;

/**
 * How long a replica keeps an account's lock after a settlement, for that sender's next one: a
 * sender paying in close succession saves a lock round trip per transfer. Another replica wanting
 * the account waits at most this long more (one sender's commands share a partition, so that is rare).
 */
export const LOCK_LINGER_MS = 100;

/** A lock connection holding an account's lock. */
interface Held {
  client: PoolClient;
  /** Its lock or unlock failed, or it was lost: closed, not pooled, never reused. */
  state: { broken: boolean };
  giveBack(): void;
  timer?: NodeJS.Timeout;
}

/**
 * One settlement at a time per ledger account, across every replica (ARCHITECTURE §5: a proof is
 * bound to the source's current balance ciphertext). A Postgres session advisory lock, released by
 * the database if this process dies; an in-process queue in front so that waiting callers of one
 * replica hold at most one connection. When the runtime owns its database (the one-process mode's
 * embedded server) no other process can settle from these accounts, and the queue alone suffices.
 */
@Injectable()
export class AccountLocks implements OnModuleDestroy {
  private readonly logger = new Logger(AccountLocks.name);
  private readonly local = new Map<string, Promise<void>>();
  private readonly sharedWithOtherProcesses: boolean;
  private lockPool: Pool | undefined;
  private readonly lingering = new Map<string, Held>();

  constructor(
    private readonly dataSource: DataSource,
    @Optional() @Inject(RUNTIME) runtime?: Runtime,
  ) {
    this.sharedWithOtherProcesses = runtime?.ownsDatabase !== true;
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.local.get(key) ?? Promise.resolve();
    let release = () => {};
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.local.set(key, tail);
    await previous;
    try {
      return this.sharedWithOtherProcesses ? await this.withAdvisoryLock(key, work) : await work();
    } finally {
      release();
      if (this.local.get(key) === tail) {
        this.local.delete(key);
      }
    }
  }

  /** Runs `work` only if nobody holds the lock now; otherwise returns undefined at once. */
  async tryRun<T>(key: string, work: () => Promise<T>): Promise<T | undefined> {
    if (this.local.has(key)) {
      return undefined;
    }
    if (!this.sharedWithOtherProcesses) {
      return this.run(key, work);
    }
    return this.holding(key, 'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', work);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.lingering.keys()].map((key) => this.release(key)));
    await this.lockPool?.end();
  }

  private async withAdvisoryLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = await this.holding(
      key,
      'SELECT true AS locked FROM pg_advisory_lock(hashtextextended($1, 0))',
      async () => ({ value: await work() }),
    );
    if (!result) {
      throw new Error(`advisory lock ${key} was not taken`);
    }
    return result.value;
  }

  /**
   * Runs `work` while a lock connection holds `key` (undefined when `lock` answers not locked): the
   * one that kept it since this replica's last settlement of `key`, or a new one. Afterwards the lock
   * lingers for `LOCK_LINGER_MS` unless others wait for a lock connection; the unlock is not waited
   * for (the result goes back at once), and the connection returns to the pool only once it has
   * unlocked, so no pooled connection ever holds a lock. Whoever locks the key meanwhile waits for
   * that unlock in the database.
   */
  private async holding<T>(key: string, lock: string, work: () => Promise<T>): Promise<T | undefined> {
    const held = this.kept(key) ?? (await this.lock(key, lock));
    if (!held) {
      return undefined;
    }
    try {
      return await work();
    } finally {
      this.linger(key, held);
    }
  }

  private kept(key: string): Held | undefined {
    const held = this.lingering.get(key);
    if (held) {
      this.lingering.delete(key);
      clearTimeout(held.timer);
    }
    return held;
  }

  private async lock(key: string, lock: string): Promise<Held | undefined> {
    const client = await this.connection();
    // A connection whose lock or unlock failed is closed, not pooled: closing releases its locks.
    const state = { broken: false };
    // Lost while the work runs or the lock lingers (the database restarted): the unlock then fails,
    // and without a listener the client's 'error' event would crash the process.
    const lost = (error: Error) => {
      state.broken = true;
      this.logger.warn(`lock connection for ${key} lost: ${error.message}`);
      if (this.lingering.get(key) === held) {
        void this.release(key);
      }
    };
    const held: Held = {
      client,
      state,
      giveBack: () => {
        client.off('error', lost);
        client.release(state.broken);
      },
    };
    client.on('error', lost);
    let locked: boolean;
    try {
      locked = (await client.query<{ locked: boolean }>(lock, [key])).rows[0]?.locked === true;
    } catch (error: unknown) {
      state.broken = true;
      held.giveBack();
      throw error;
    }
    if (!locked) {
      held.giveBack();
      return undefined;
    }
    return held;
  }

  private linger(key: string, held: Held): void {
    if (held.state.broken || (this.lockPool?.waitingCount ?? 0) > 0) {
      void this.unlock(held, key);
      return;
    }
    held.timer = setTimeout(() => void this.release(key), LOCK_LINGER_MS).unref();
    this.lingering.set(key, held);
  }

  private release(key: string): Promise<void> {
    const held = this.kept(key);
    return held ? this.unlock(held, key) : Promise.resolve();
  }

  private async unlock(held: Held, key: string): Promise<void> {
    try {
      await held.client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
    } catch (error: unknown) {
      held.state.broken = true;
      this.logger.warn(`unlocking ${key} failed, closing its connection: ${String(error)}`);
    } finally {
      held.giveBack();
    }
  }

  private connection(): Promise<PoolClient> {
    if (!this.lockPool) {
      const { url } = this.dataSource.options as { url?: string };
      this.lockPool = new Pool({
        connectionString: url,
        max: LOCK_CONNECTIONS,
        idleTimeoutMillis: IDLE_LOCK_CONNECTION_MS,
      });
      // An idle connection lost with the database (a restart) is replaced on the next checkout.
      this.lockPool.on('error', (error) => this.logger.warn(`lock connection lost: ${error.message}`));
    }
    if (this.lockPool.idleCount === 0 && this.lockPool.totalCount >= LOCK_CONNECTIONS) {
      // Every connection holds a lock: one kept only in case its sender comes back goes first.
      const [oldest] = this.lingering.keys();
      if (oldest !== undefined) {
        void this.release(oldest);
      }
    }
    return this.lockPool.connect();
  }
}

export const accountLockKey = (accountId: string, environment: string, asset: string): string =>
  `settle:${environment}:${accountId}:${asset}`;
