import { Injectable } from '@nestjs/common';
import { type Environment } from '@cts/contracts';
import { DataSource, type EntityManager, In } from 'typeorm';
import { type SpendPolicyState } from './spend-policy.domain';
import { SpendPolicyEntity } from './spend-policy.entity';

const toState = (row: SpendPolicyEntity): SpendPolicyState => ({
  id: row.id,
  agentAccountId: row.agentAccountId,
  environment: row.environment as Environment,
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
    environment: Environment,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SpendPolicyState | null> {
    const row = await manager.findOneBy(SpendPolicyEntity, { agentAccountId, environment });
    return row ? toState(row) : null;
  }

  /** Policy id by agent, for the agents' policies in `environment`. */
  async idsByAgent(agentAccountIds: string[], environment: Environment): Promise<Map<string, string>> {
    if (agentAccountIds.length === 0) {
      return new Map();
    }
    const rows = await this.dataSource.manager.find(SpendPolicyEntity, {
      select: { id: true, agentAccountId: true },
      where: { agentAccountId: In(agentAccountIds), environment },
    });
    return new Map(rows.map((row) => [row.agentAccountId, row.id]));
  }

  /** Inserts or overwrites the whole policy. */
  async save(policy: SpendPolicyState, manager: EntityManager): Promise<SpendPolicyState> {
    return toState(await manager.save(manager.create(SpendPolicyEntity, policy)));
  }
}
