import { type Environment } from '@cts/contracts';
import { CustodyError } from './custody-error';
import { type CustodyKeyRecord, type CustodyKeyRepository } from './custody-key.repository';

/** For tests and the embedded mode's unit wiring; same insert-only contract as the real table. */
export class InMemoryCustodyKeyRepository implements CustodyKeyRepository {
  private readonly records = new Map<string, CustodyKeyRecord>();

  save(record: CustodyKeyRecord): Promise<void> {
    const key = this.key(record.accountId, record.environment);
    if (this.records.has(key)) {
      return Promise.reject(
        new CustodyError(
          'keys_already_exist',
          `keys for ${record.accountId} (${record.environment}) already exist`,
        ),
      );
    }
    this.records.set(key, { ...record, createdAt: new Date(record.createdAt) });
    return Promise.resolve();
  }

  find(accountId: string, environment: Environment): Promise<CustodyKeyRecord | undefined> {
    const record = this.records.get(this.key(accountId, environment));
    return Promise.resolve(record && { ...record, createdAt: new Date(record.createdAt) });
  }

  private key(accountId: string, environment: Environment): string {
    return `${environment}\0${accountId}`;
  }
}
