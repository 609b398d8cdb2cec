import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type SpendPolicyState } from './spend-policy.domain';
import { SpendPolicyEntity } from './spend-policy.entity';

const toState = (row: SpendPolicyEntity): SpendPolicyState => ({
  id: row.id,
  agentAccountId: row.agentAccountId,
  dailyLimit: row.dailyLimit,
  perTransactionLimit: row.perTransactionLimit,
  allowedRecipients: row.allowedRecipients,
  assets: row.assets,
  activeHours: row.activeHours,
  timezone: row.timezone,
  hitlThreshold: row.hitlThreshold,
  approvalWindowMinutes: row.approvalWindowMinutes,
  updatedAt: row.updatedAt,
});

@Injectable()
export class SpendPolicyRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findByAgent(
    agentAccountId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SpendPolicyState | null> {
    const row = await manager.findOneBy(SpendPolicyEntity, { agentAccountId });
    return row ? toState(row) : null;
  }

  /** Inserts or overwrites the whole policy. */
  async save(policy: SpendPolicyState, manager: EntityManager): Promise<SpendPolicyState> {
    return toState(await manager.save(manager.create(SpendPolicyEntity, policy)));
  }
}
