import { Inject, Injectable } from '@nestjs/common';
import {
  AgentPolicyUpdated,
  contextFrom,
  type Envelope,
  type Environment,
  fail,
  GetSpendPolicy,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
  UpdateSpendPolicy,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { UnitOfWork } from '@cts/persistence';
import { type EntityManager } from 'typeorm';
import { agentRef, type AgentState, isOwnedBy, ownerRef } from '../agents/agent.domain';
import { AgentRepository } from '../agents/agent.repository';
import { applyPolicyPatch } from './policy-validation.domain';
import { type SpendPolicyState, toSpendPolicyResource } from './spend-policy.domain';
import { SpendPolicyRepository } from './spend-policy.repository';

type Owned = { ok: true; agent: AgentState; policy: SpendPolicyState } | { ok: false; result: Result<never> };

@Injectable()
export class PolicyHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly agents: AgentRepository,
    private readonly policies: SpendPolicyRepository,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

  @OnCommand(GetSpendPolicy)
  async get(
    message: Envelope<RequestOf<typeof GetSpendPolicy>>,
  ): Promise<Result<ResponseOf<typeof GetSpendPolicy>>> {
    const { caller_account_id, agent_account_id, environment } = message.payload;
    const owned = await this.ownedAgent(
      caller_account_id,
      environment,
      await this.agents.findById(agent_account_id),
    );
    return owned.ok ? ok(toSpendPolicyResource(owned.policy)) : owned.result;
  }

  /**
   * Applies at once to every later evaluation (spec §3.3): it takes the agent's row lock, so it is
   * ordered with evaluations and with other updates, and each update validates against the latest.
   */
  @OnCommand(UpdateSpendPolicy)
  async update(
    message: Envelope<RequestOf<typeof UpdateSpendPolicy>>,
  ): Promise<Result<ResponseOf<typeof UpdateSpendPolicy>>> {
    const { caller_account_id, agent_account_id, environment, patch } = message.payload;
    const { value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
      const owned = await this.ownedAgent(
        caller_account_id,
        environment,
        await this.agents.lockById(agent_account_id, tx.manager),
        tx.manager,
      );
      if (!owned.ok) {
        return owned.result;
      }
      const patched = applyPolicyPatch(owned.policy, patch);
      if (!patched.ok) {
        const { field, message: text } = patched.problem;
        return fail('invalid_policy', text, field === null ? {} : { param: field });
      }
      const { rules, changed } = patched.value;
      if (changed.length === 0) {
        // Nothing changed: no write, no event, `updated_at` stays what it was.
        return ok(toSpendPolicyResource(owned.policy));
      }
      const saved = await this.policies.save(
        { ...owned.policy, ...rules, updatedAt: new Date() },
        tx.manager,
      );
      await tx.emit(
        AgentPolicyUpdated,
        owned.agent.accountId,
        {
          agent: agentRef(owned.agent),
          owner: ownerRef(owned.agent),
          policy_id: saved.id,
          changed_fields: changed,
          updated_at: saved.updatedAt.toISOString(),
        },
        // Announced in the world whose policy changed, whatever the envelope says.
        { ...contextFrom(message), environment },
      );
      return ok(toSpendPolicyResource(saved));
    });
    return value;
  }

  private async ownedAgent(
    caller: string,
    environment: Environment,
    agent: AgentState | null,
    manager?: EntityManager,
  ): Promise<Owned> {
    if (!agent) {
      return { ok: false, result: fail('agent_not_found', 'No such agent') };
    }
    if (!isOwnedBy(agent, caller)) {
      return {
        ok: false,
        result: fail('not_agent_owner', 'Only the account that owns this agent can manage its spend policy'),
      };
    }
    const policy = await this.policies.findByAgent(agent.accountId, environment, manager);
    if (!policy) {
      throw new Error(`agent ${agent.accountId} has no ${environment} spend policy`);
    }
    return { ok: true, agent, policy };
  }
}
