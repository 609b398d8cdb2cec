import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * One settlement at a time per ledger account, across every replica (ARCHITECTURE §5: a proof is
 * bound to the source's current balance ciphertext). A Postgres session advisory lock, released by
 * the database if this process dies; an in-process queue in front so that waiting callers of one
 * replica hold at most one connection.
 */
@Injectable()
export class AccountLocks {
  private readonly local = new Map<string, Promise<void>>();

  constructor(private readonly dataSource: DataSource) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.local.get(key) ?? Promise.resolve();
    let release = () => {};
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.local.set(key, tail);
    await previous;
    try {
      return await this.withAdvisoryLock(key, work);
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
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const rows = (await runner.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [
        key,
      ])) as { locked: boolean }[];
      if (!rows[0]?.locked) {
        return undefined;
      }
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
      }
    } finally {
      await runner.release();
    }
  }

  private async withAdvisoryLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
      }
    } finally {
      await runner.release();
    }
  }
}

export const accountLockKey = (accountId: string, environment: string, asset: string): string =>
  `settle:${environment}:${accountId}:${asset}`;
