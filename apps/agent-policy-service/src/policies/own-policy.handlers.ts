import { Injectable } from '@nestjs/common';
import {
  type Envelope,
  fail,
  GetOwnSpendPolicy,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { toSpendPolicyResource } from './spend-policy.domain';
import { SpendPolicyRepository } from './spend-policy.repository';

/** An agent reads the policy it runs under (issue 19: an AI agent plans within its limits). */
@Injectable()
export class OwnPolicyHandlers {
  constructor(private readonly policies: SpendPolicyRepository) {}

  @OnCommand(GetOwnSpendPolicy)
  async get(
    message: Envelope<RequestOf<typeof GetOwnSpendPolicy>>,
  ): Promise<Result<ResponseOf<typeof GetOwnSpendPolicy>>> {
    const { agent_account_id, environment } = message.payload;
    const policy = await this.policies.findByAgent(agent_account_id, environment);
    return policy
      ? ok(toSpendPolicyResource(policy))
      : fail('agent_not_found', 'This account is not an agent: only agent accounts run under a spend policy');
  }
}
