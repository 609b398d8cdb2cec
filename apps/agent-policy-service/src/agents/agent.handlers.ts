import { Inject, Injectable } from '@nestjs/common';
import {
  AgentCreated,
  contextFrom,
  CreateAgent,
  ENVIRONMENTS,
  type Envelope,
  fail,
  ListAgents,
  newId,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { UnitOfWork } from '@cts/persistence';
import { isUniqueViolation } from '@cts/persistence';
import { validateNewPolicy } from '../policies/policy-validation.domain';
import { SpendPolicyRepository } from '../policies/spend-policy.repository';
import {
  agentHandleFor,
  agentRef,
  type AgentState,
  canOwnAgents,
  ownerRef,
  toAgentResource,
} from './agent.domain';
import { AgentRepository } from './agent.repository';

type CreateAgentRequest = RequestOf<typeof CreateAgent>;

@Injectable()
export class AgentHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly agents: AgentRepository,
    private readonly policies: SpendPolicyRepository,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

  @OnCommand(CreateAgent)
  async create(message: Envelope<CreateAgentRequest>): Promise<Result<ResponseOf<typeof CreateAgent>>> {
    const request = message.payload;
    const refused = this.refusal(request);
    if (refused) {
      return refused;
    }
    const policy = validateNewPolicy(request.spend_policy);
    if (!policy.ok) {
      const { field, message: text } = policy.problem;
      return fail('invalid_policy', `spend_policy: ${text}`, {
        param: field === null ? 'spend_policy' : `spend_policy.${field}`,
      });
    }
    const taken = () => fail('handle_taken', `${request.handle} is already taken`, { param: 'name' });
    // The reply shows the caller key's world; an operator (no key) sees live, as for accounts.
    const environment = message.environment ?? 'live';
    const created = (agent: AgentState, policyId: string) =>
      ok({ ...toAgentResource(agent, environment, policyId), public_key: request.addresses[environment] });
    try {
      const { value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
        const existing = await this.agents.findById(request.agent_account_id, tx.manager);
        if (existing) {
          // A retry of a creation that went through: the same answer, not an error.
          const policy = await this.policies.findByAgent(existing.accountId, environment, tx.manager);
          return existing.ownerAccountId === request.owner.account_id &&
            existing.name === request.name &&
            policy
            ? created(existing, policy.id)
            : fail('invalid_request', 'This account is already registered as an agent', {
                param: 'agent_account_id',
              });
        }
        if (await this.agents.nameTaken(request.owner.account_id, request.name, tx.manager)) {
          return taken();
        }
        const agent = await this.agents.insert(
          {
            accountId: request.agent_account_id,
            ownerAccountId: request.owner.account_id,
            ownerHandle: request.owner.handle,
            name: request.name,
            handle: request.handle,
            addresses: request.addresses,
            status: 'active',
          },
          tx.manager,
        );
        const updatedAt = new Date();
        const policyIds = { live: newId('pol'), test: newId('pol') };
        for (const env of ENVIRONMENTS) {
          // Both worlds start from the same request; from then on each changes only with its own keys.
          await this.policies.save(
            {
              id: policyIds[env],
              agentAccountId: agent.accountId,
              environment: env,
              updatedAt,
              ...policy.value,
            },
            tx.manager,
          );
          await tx.emit(
            AgentCreated,
            agent.accountId,
            {
              agent: agentRef(agent),
              owner: ownerRef(agent),
              spend_policy_id: policyIds[env],
              created_at: agent.createdAt.toISOString(),
            },
            { ...contextFrom(message), environment: env },
          );
        }
        return created(agent, policyIds[environment]);
      });
      return value;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return taken();
      }
      throw error;
    }
  }

  @OnCommand(ListAgents)
  async list(
    message: Envelope<RequestOf<typeof ListAgents>>,
  ): Promise<Result<ResponseOf<typeof ListAgents>>> {
    const { owner_account_id, environment } = message.payload;
    const agents = await this.agents.listByOwner(owner_account_id);
    const policyIds = await this.policies.idsByAgent(
      agents.map((agent) => agent.accountId),
      environment,
    );
    return ok({
      agents: agents.map((agent) => {
        const policyId = policyIds.get(agent.accountId);
        if (policyId === undefined) {
          throw new Error(`agent ${agent.accountId} has no ${environment} spend policy`);
        }
        return toAgentResource(agent, environment, policyId);
      }),
    });
  }

  private refusal(request: CreateAgentRequest): Result<never> | null {
    if (!canOwnAgents(request.owner.type)) {
      return fail('invalid_request', 'an agent cannot create agents');
    }
    if (request.handle !== agentHandleFor(request.owner.handle, request.name)) {
      return fail('invalid_request', `handle must be ${agentHandleFor(request.owner.handle, request.name)}`, {
        param: 'handle',
      });
    }
    return null;
  }
}
