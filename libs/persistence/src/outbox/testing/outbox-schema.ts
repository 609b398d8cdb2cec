import { AccountCreated, type Envelope } from '@cts/contracts';
import { createServiceDataSource } from '../../data-source';
import { createOutboxInboxTables } from '../../outbox-inbox.schema';
import { type Transaction } from '../../unit-of-work';
import { type DataSource } from 'typeorm';

/** For the relay's tests: a data source on `schema`, created with its outbox and inbox tables. */
export async function openOutboxSchema(url: string, schema: string): Promise<DataSource> {
  const dataSource = createServiceDataSource({ schema, url, entities: [], migrations: [] });
  await dataSource.initialize();
  await dataSource.query(`CREATE SCHEMA ${schema}`);
  const runner = dataSource.createQueryRunner();
  await createOutboxInboxTables(runner, schema);
  await runner.release();
  return dataSource;
}

/** Writes an `account.created` event for `accountId` into the transaction's outbox. */
export function emitAccountCreated(tx: Transaction, accountId: string, handle: string): Promise<Envelope> {
  return tx.emit(
    AccountCreated,
    accountId,
    {
      account_id: accountId,
      handle,
      type: 'personal',
      kyc_status: 'unverified',
      owner_account_id: null,
      created_at: new Date().toISOString(),
    },
    { correlationId: `req_${accountId}`, environment: null, accountId },
  );
}
