import { Injectable } from '@nestjs/common';
import { type Environment } from '@cts/contracts';
import { Custody } from '@cts/custody';
import { type Transaction } from '@cts/persistence';
import { DataSource } from 'typeorm';
import { ApiKeyTotalEntity } from '../transfers/transfer.entity';

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

  /** Inside the confirming transaction; the row lock keeps concurrent confirmations exact. */
  async add(
    tx: Transaction,
    accountId: string,
    environment: Environment,
    keyId: string,
    amount: bigint,
  ): Promise<void> {
    // The upsert both creates the row on the key's first transfer and locks it (ON CONFLICT DO UPDATE).
    const [row] = await tx.manager.query<{ encrypted_usdc_total: string }[]>(
      `INSERT INTO "transfers"."api_key_totals" ("key_id", "account_id", "encrypted_usdc_total", "updated_at")
       VALUES ($1, $2, '', now())
       ON CONFLICT ("key_id") DO UPDATE SET "updated_at" = excluded."updated_at"
       RETURNING "encrypted_usdc_total"`,
      [keyId, accountId],
    );
    const current = row?.encrypted_usdc_total || undefined;
    const total = await this.custody.addToEncryptedTotal(accountId, environment, current, amount);
    await tx.manager.update(
      ApiKeyTotalEntity,
      { keyId },
      { encryptedUsdcTotal: total, updatedAt: new Date() },
    );
  }

  async forAccount(accountId: string): Promise<{ key_id: string; encrypted_usdc_total: string }[]> {
    const rows = await this.dataSource.manager.findBy(ApiKeyTotalEntity, { accountId });
    return rows.map((row) => ({ key_id: row.keyId, encrypted_usdc_total: row.encryptedUsdcTotal }));
  }
}
