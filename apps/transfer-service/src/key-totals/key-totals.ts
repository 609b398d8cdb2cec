import { Injectable } from '@nestjs/common';
import { type Environment } from '@cts/contracts';
import { Custody } from '@cts/custody';
import { type Transaction } from '@cts/persistence';
import { DataSource } from 'typeorm';
import { ApiKeyTotalEntity } from '../transfers/transfer.entity';

const MAX_REMEMBERED_TOTALS = 10_000;

/**
 * Per-key "total USDC transferred" (spec §5.5), kept as an AE ciphertext: custody adds inside its
 * boundary, so the running sum is exact and never exists in plaintext outside it.
 */
@Injectable()
export class KeyTotals {
  constructor(
    private readonly custody: Custody,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * The total each key had after this replica's last addition: what a finishing transfer expects to
   * find (compare-and-set), so it adds in the statement that finishes it instead of a transaction
   * around a locked read. Ciphertexts only, as stored; a stale one costs a retry, never a wrong sum.
   */
  private readonly known = new Map<string, string>();

  lastKnown(keyId: string): string | undefined {
    return this.known.get(keyId);
  }

  /** After the write of `total` committed. */
  remember(keyId: string, total: string): void {
    this.known.delete(keyId);
    if (this.known.size >= MAX_REMEMBERED_TOTALS) {
      // Map iteration is insertion order: forget the least recently written.
      this.known.delete(this.known.keys().next().value as string);
    }
    this.known.set(keyId, total);
  }

  forget(keyId: string): void {
    this.known.delete(keyId);
  }

  /** `current` plus `amount`, added inside custody; `current` undefined starts from zero. */
  added(accountId: string, environment: Environment, current: string | undefined, amount: bigint) {
    return this.custody.addToEncryptedTotal(accountId, environment, current, amount);
  }

  /**
   * Inside the confirming transaction; the row lock keeps concurrent confirmations exact. Returns
   * the new total (to `remember` once the transaction commits).
   */
  async add(
    tx: Transaction,
    accountId: string,
    environment: Environment,
    keyId: string,
    amount: bigint,
  ): Promise<string> {
    // The upsert both creates the row on the key's first transfer and locks it (ON CONFLICT DO UPDATE).
    const [row] = await tx.manager.query<{ encrypted_usdc_total: string }[]>(
      `INSERT INTO "transfers"."api_key_totals" ("key_id", "account_id", "encrypted_usdc_total", "updated_at")
       VALUES ($1, $2, '', now())
       ON CONFLICT ("key_id") DO UPDATE SET "updated_at" = excluded."updated_at"
       RETURNING "encrypted_usdc_total"`,
      [keyId, accountId],
    );
    const current = row?.encrypted_usdc_total || undefined;
    const total = await this.added(accountId, environment, current, amount);
    await tx.manager.update(
      ApiKeyTotalEntity,
      { keyId },
      { encryptedUsdcTotal: total, updatedAt: new Date() },
    );
    return total;
  }

  async forAccount(accountId: string): Promise<{ key_id: string; encrypted_usdc_total: string }[]> {
    const rows = await this.dataSource.manager.findBy(ApiKeyTotalEntity, { accountId });
    return rows.map((row) => ({ key_id: row.keyId, encrypted_usdc_total: row.encryptedUsdcTotal }));
  }
}
