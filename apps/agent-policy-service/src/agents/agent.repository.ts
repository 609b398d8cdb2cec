import { Injectable } from '@nestjs/common';
import { type AgentStatus } from '@cts/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { type AgentState } from './agent.domain';
import { AgentEntity } from './agent.entity';

const toState = (row: AgentEntity): AgentState => ({
  accountId: row.accountId,
  ownerAccountId: row.ownerAccountId,
  ownerHandle: row.ownerHandle,
  name: row.name,
  handle: row.handle,
  addresses: { live: row.addressLive, test: row.addressTest },
  status: row.status as AgentStatus,
  createdAt: row.createdAt,
});

@Injectable()
export class AgentRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findById(
    accountId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<AgentState | null> {
    const row = await manager.findOneBy(AgentEntity, { accountId });
    return row ? toState(row) : null;
  }

  /**
   * The agent row under `SELECT … FOR UPDATE`: every change to an agent's policy or spending takes
   * this lock first, so concurrent evaluations of one agent run one after the other.
   */
  async lockById(accountId: string, manager: EntityManager): Promise<AgentState | null> {
    const row = await manager.findOne(AgentEntity, {
      where: { accountId },
      lock: { mode: 'pessimistic_write' },
    });
    return row ? toState(row) : null;
  }

  async nameTaken(ownerAccountId: string, name: string, manager: EntityManager): Promise<boolean> {
    return manager.existsBy(AgentEntity, { ownerAccountId, name });
  }

  async insert(agent: Omit<AgentState, 'createdAt'>, manager: EntityManager): Promise<AgentState> {
    const { addresses, ...columns } = agent;
    const row = manager.create(AgentEntity, {
      ...columns,
      addressLive: addresses.live,
      addressTest: addresses.test,
    });
    return toState(await manager.save(row));
  }

  async listByOwner(ownerAccountId: string): Promise<AgentState[]> {
    const rows = await this.dataSource.manager.find(AgentEntity, {
      where: { ownerAccountId },
      order: { createdAt: 'ASC', accountId: 'ASC' },
    });
    return rows.map(toState);
  }
}
