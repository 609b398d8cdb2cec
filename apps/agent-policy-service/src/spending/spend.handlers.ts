import { Inject, Injectable } from '@nestjs/common';
import {
  type Envelope,
  EvaluateAgentSpend,
  fail,
  ok,
  ReleaseSpendReservation,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { UnitOfWork } from '@cts/persistence';
import { agentRef, ownerRef } from '../agents/agent.domain';
import { AgentRepository } from '../agents/agent.repository';
import { evaluateSpend, spendingDay } from '../policies/policy-evaluation.domain';
import { SpendPolicyRepository } from '../policies/spend-policy.repository';
import { SpendLedger } from './spend-ledger';
import { SpendSealer } from './spend-sealer';

type Evaluation = Result<ResponseOf<typeof EvaluateAgentSpend>>;

@Injectable()
export class SpendHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly agents: AgentRepository,
    private readonly policies: SpendPolicyRepository,
    private readonly ledger: SpendLedger,
    private readonly sealer: SpendSealer,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

  /**
   * Check and reserve in one transaction under the agent's row lock: two evaluations of one agent
   * run one after the other, so they cannot both pass a daily limit they exceed together.
   */
  @OnCommand(EvaluateAgentSpend)
  async evaluate(message: Envelope<RequestOf<typeof EvaluateAgentSpend>>): Promise<Evaluation> {
    const request = message.payload;
    const { value } = await this.unitOfWork.once(message, this.consumer, async (tx): Promise<Evaluation> => {
      const agent = await this.agents.lockById(request.agent_account_id, tx.manager);
      if (!agent) {
        return ok({ decision: 'not_agent' });
      }
      const policy = await this.policies.findByAgent(agent.accountId, request.environment, tx.manager);
      if (!policy) {
        throw new Error(`agent ${agent.accountId} has no ${request.environment} spend policy`);
      }
      const existing = await this.ledger.findReservation(request.reservation_id, tx.manager);
      if (existing && existing.agentAccountId !== agent.accountId) {
        return fail('invalid_request', 'This reservation belongs to another agent', {
          param: 'reservation_id',
        });
      }
      const amount = this.sealer.openTransferAmount(request.sealed_amount, agent.accountId);
      const at = request.at ? new Date(request.at) : new Date();
      const asset = request.asset.toUpperCase();
      const bucket = {
        agentAccountId: agent.accountId,
        environment: request.environment,
        asset,
        day: spendingDay(policy, at),
      };
      const spentToday = await this.ledger.spentExcluding(bucket, existing, tx.manager);
      const verdict = evaluateSpend(policy, {
        to: request.to,
        payTo: request.pay_to,
        asset,
        amount,
        at,
        mode: request.mode,
        spentToday,
      });
      if (verdict.outcome === 'deny') {
        // A denial changes nothing: an earlier reservation under this id stays until released.
        return fail('policy_violation', verdict.message, { reason: verdict.reason });
      }
      await this.ledger.reserve(request.reservation_id, bucket, amount, existing, tx.manager);
      return ok({
        decision: verdict.outcome,
        agent: agentRef(agent),
        owner: ownerRef(agent),
        approval_window_minutes: policy.approvalWindowMinutes,
        policy_id: policy.id,
      });
    });
    return value;
  }

  @OnCommand(ReleaseSpendReservation)
  async release(
    message: Envelope<RequestOf<typeof ReleaseSpendReservation>>,
  ): Promise<Result<ResponseOf<typeof ReleaseSpendReservation>>> {
    const { reservation_id } = message.payload;
    const { value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
      const found = await this.ledger.findReservation(reservation_id, tx.manager);
      if (!found || found.releasedAt !== null) {
        return ok({ released: false });
      }
      // Lock first, then read again: a concurrent evaluation or release may have changed it.
      await this.agents.lockById(found.agentAccountId, tx.manager);
      const current = await this.ledger.findReservation(reservation_id, tx.manager);
      return ok({ released: current !== null && (await this.ledger.release(current, tx.manager)) });
    });
    return value;
  }
}
