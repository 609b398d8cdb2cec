import { Global, Injectable, Module } from '@nestjs/common';
import { type Environment } from '@cts/contracts';
import { parseSealingKey } from '@cts/crypto';
import { Custody, type CustodyKeyRecord, type CustodyKeyRepository } from '@cts/custody';
import { RUNTIME, type Runtime } from '@cts/platform';
import { DataSource } from 'typeorm';
import { CustodyKeyEntity } from './custody-key.entity';

/** `transfers.custody_keys`: insert only, never replaced (losing a key loses the funds). */
@Injectable()
export class TypeOrmCustodyKeyRepository implements CustodyKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  async save(record: CustodyKeyRecord): Promise<void> {
    await this.dataSource.manager.insert(CustodyKeyEntity, record);
  }

  async find(accountId: string, environment: Environment): Promise<CustodyKeyRecord | undefined> {
    const row = await this.dataSource.manager.findOneBy(CustodyKeyEntity, { accountId, environment });
    return row ? { ...row, environment: row.environment as Environment } : undefined;
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

