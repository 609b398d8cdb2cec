import { Global, Injectable, Module } from '@nestjs/common';
import { type Environment } from '@cts/contracts';
import { RUNTIME, type Runtime } from '@cts/runtime';
import { parseSealingKey } from '@cts/crypto';
import { Custody, type CustodyKeyRecord, type CustodyKeyRepository } from '@cts/custody';
import { DataSource } from 'typeorm';
import { CustodyKeyEntity } from './custody-key.entity';

const CACHED_RECORDS = 10_000;

/**
 * `transfers.custody_keys`: insert only, never replaced (losing a key loses the funds). Rows are
 * immutable, so found ones are kept in memory (still sealed): a transfer asks for them several times.
 */
@Injectable()
export class TypeOrmCustodyKeyRepository implements CustodyKeyRepository {
  private readonly cache = new Map<string, CustodyKeyRecord>();

  constructor(private readonly dataSource: DataSource) {}

  async save(record: CustodyKeyRecord): Promise<void> {
    await this.dataSource.manager.insert(CustodyKeyEntity, record);
  }

  async find(accountId: string, environment: Environment): Promise<CustodyKeyRecord | undefined> {
    const key = `${accountId}:${environment}`;
    const cached = this.cache.get(key);
    if (cached) {
      return cached;
    }
    const row = await this.dataSource.manager.findOneBy(CustodyKeyEntity, { accountId, environment });
    if (!row) {
      return undefined;
    }
    const record = { ...row, environment: row.environment as Environment };
    if (this.cache.size >= CACHED_RECORDS) {
      this.cache.clear();
    }
    this.cache.set(key, record);
    return record;
  }
}

@Global()
@Module({
  providers: [
    TypeOrmCustodyKeyRepository,
    {
      provide: Custody,
      inject: [TypeOrmCustodyKeyRepository, RUNTIME],
      useFactory: (repository: TypeOrmCustodyKeyRepository, runtime: Runtime) =>
        new Custody(repository, parseSealingKey(runtime.secrets.custodyMasterKey, 'CUSTODY_MASTER_KEY')),
    },
  ],
  exports: [Custody],
})
export class CustodyModule {}
