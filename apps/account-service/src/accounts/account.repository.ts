import { Injectable } from '@nestjs/common';
import { type AccountType, type Environment, type KycStatus } from '@cts/contracts';
import { PreparedStatement } from '@cts/persistence';
import { DataSource, type EntityManager } from 'typeorm';
import { type AccountState } from './account.domain';
import { AccountEntity, VerifiedDomainEntity } from './account.entity';

const toState = (row: AccountEntity): AccountState => ({
  id: row.id,
  handle: row.handle,
  type: row.type as AccountType,
  kycStatus: row.kycStatus as KycStatus,
  ownerAccountId: row.ownerAccountId,
  addresses: { test: row.addressTest, live: row.addressLive },
  createdAt: row.createdAt,
});

const ACCOUNT_COLUMNS = `id, handle, type, kyc_status AS "kycStatus", owner_account_id AS "ownerAccountId",
          address_test AS "addressTest", address_live AS "addressLive", created_at AS "createdAt",
          updated_at AS "updatedAt"`;

/** Every transfer resolves its parties with it: prepared, and without building the query each time. */
const FIND_BY_ID_AND_HANDLE = new PreparedStatement<AccountEntity>(
  'accounts.find_by_id_and_handle',
  `SELECT ${ACCOUNT_COLUMNS} FROM "accounts"."accounts" WHERE id = $1 OR handle = $2`,
);

/** Every `GET /v1/accounts/me` reads it: building it in TypeORM took 8 % of account-service's CPU. */
const FIND_BY_ID = new PreparedStatement<AccountEntity>(
  'accounts.find_by_id',
  `SELECT ${ACCOUNT_COLUMNS} FROM "accounts"."accounts" WHERE id = $1`,
);

const ADDRESS_COLUMN = { test: 'addressTest', live: 'addressLive' } as const;

@Injectable()
export class AccountRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<AccountState | null> {
    const [row] = await FIND_BY_ID.run(manager, [id]);
    return row ? toState(row) : null;
  }

  /**
   * The account with its row locked until the transaction ends: changes of one account run one
   * after the other, each reading what the one before it wrote.
   */
  async lockById(id: string, manager: EntityManager): Promise<AccountState | null> {
    const row = await manager.findOne(AccountEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
    return row ? toState(row) : null;
  }

  async findByHandle(handle: string): Promise<AccountState | null> {
    const row = await this.dataSource.manager.findOneBy(AccountEntity, { handle });
    return row ? toState(row) : null;
  }

  /** The account with `id` and the one with `handle` (the same one when they coincide), one round trip. */
  async findByIdAndHandle(
    id: string,
    handle: string,
  ): Promise<{ byId: AccountState | null; byHandle: AccountState | null }> {
    const rows = await FIND_BY_ID_AND_HANDLE.run(this.dataSource, [id, handle]);
    const byId = rows.find((row) => row.id === id);
    const byHandle = rows.find((row) => row.handle === handle);
    return { byId: byId ? toState(byId) : null, byHandle: byHandle ? toState(byHandle) : null };
  }

  async findByAddress(address: string, environment: Environment): Promise<AccountState | null> {
    const row = await this.dataSource.manager.findOneBy(AccountEntity, {
      [ADDRESS_COLUMN[environment]]: address,
    });
    return row ? toState(row) : null;
  }

  async handleExists(handle: string, manager: EntityManager): Promise<boolean> {
    return manager.existsBy(AccountEntity, { handle });
  }

  async insert(account: Omit<AccountState, 'createdAt'>, manager: EntityManager): Promise<AccountState> {
    const { addresses, ...rest } = account;
    const row = manager.create(AccountEntity, {
      ...rest,
      addressTest: addresses.test,
      addressLive: addresses.live,
    });
    return toState(await manager.save(row));
  }

  async setKycStatus(id: string, kycStatus: KycStatus, manager: EntityManager): Promise<AccountState | null> {
    await manager.update(AccountEntity, { id }, { kycStatus });
    return this.findById(id, manager);
  }

  async findDomain(
    domain: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<VerifiedDomainEntity | null> {
    return manager.findOneBy(VerifiedDomainEntity, { domain });
  }

  /**
   * Records `domain` for `accountId` unless an account has it already, and returns its row, whoever
   * has it. ON CONFLICT waits for a concurrent insert of the same domain and then reads its row: a
   * read first and an insert after raced (a unique violation, or TypeORM's save finding the row and
   * updating it).
   */
  async claimDomain(
    accountId: string,
    domain: string,
    manager: EntityManager,
  ): Promise<VerifiedDomainEntity> {
    await manager.query(
      `INSERT INTO "accounts"."verified_domains" (domain, account_id) VALUES ($1, $2) ON CONFLICT (domain) DO NOTHING`,
      [domain, accountId],
    );
    return manager.findOneByOrFail(VerifiedDomainEntity, { domain });
  }
}
