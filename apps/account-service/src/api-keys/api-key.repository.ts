import { Injectable } from '@nestjs/common';
import { type Environment } from '@cts/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { type ApiKeyState } from './api-key.domain';
import { ApiKeyEntity } from './api-key.entity';

const toState = (row: ApiKeyEntity): ApiKeyState => ({
  id: row.id,
  accountId: row.accountId,
  name: row.name,
  environment: row.environment as Environment,
  keyHash: row.keyHash,
  prefix: row.prefix,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  requestCount: Number(row.requestCount),
  revokedAt: row.revokedAt,
});

export interface NewKey {
  id: string;
  accountId: string;
  name: string;
  environment: Environment;
  key_hash: string;
  prefix: string;
}

@Injectable()
export class ApiKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(key: NewKey, manager: EntityManager): Promise<ApiKeyState> {
    const row = manager.create(ApiKeyEntity, {
      id: key.id,
      accountId: key.accountId,
      name: key.name,
      environment: key.environment,
      keyHash: key.key_hash,
      prefix: key.prefix,
      requestCount: '0',
      lastUsedAt: null,
      revokedAt: null,
    });
    return toState(await manager.save(row));
  }

  async listForAccount(accountId: string, environment: Environment): Promise<ApiKeyState[]> {
    const rows = await this.dataSource.manager.find(ApiKeyEntity, {
      where: { accountId, environment },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toState);
  }

  /** Scoped by account and environment: another's key id is indistinguishable from an unknown one. */
  async findForAccount(
    accountId: string,
    id: string,
    environment: Environment,
    manager: EntityManager,
  ): Promise<ApiKeyState | null> {
    const row = await manager.findOne(ApiKeyEntity, {
      where: { accountId, id, environment },
      lock: { mode: 'pessimistic_write' },
    });
    return row ? toState(row) : null;
  }

  async findByHash(keyHash: string): Promise<ApiKeyState | null> {
    const row = await this.dataSource.manager.findOneBy(ApiKeyEntity, { keyHash });
    return row ? toState(row) : null;
  }

  async revoke(id: string, at: Date, manager: EntityManager): Promise<void> {
    await manager.update(ApiKeyEntity, { id }, { revokedAt: at });
  }

  /** Adds flushed request counts atomically; keeps the latest last-used time. */
  async recordUsage(
    id: string,
    requests: number,
    lastUsedAt: Date,
    manager: EntityManager,
  ): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({
        requestCount: () => `request_count + ${Math.trunc(requests)}`,
        lastUsedAt: () => `GREATEST(COALESCE(last_used_at, :lastUsedAt), :lastUsedAt)`,
      })
      .where('id = :id', { id })
      .setParameter('lastUsedAt', lastUsedAt)
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
