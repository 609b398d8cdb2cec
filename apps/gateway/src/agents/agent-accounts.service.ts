import { Injectable } from '@nestjs/common';
import { type Agent, CreateAccount, DomainError, GetAccount, ListAgents } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { withOneTimeKey } from '../accounts/one-time-key';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { type CreateAgentBody } from './agents.schemas';

/**
 * Creating an agent is account creation (one command to account-service, which provisions the ledger
 * accounts, has agent-policy-service validate and record the agent and its policy, then records the
 * account). The agent gets no API key here: its owner provisions them (`POST /v1/agents/{id}/api-keys`).
 * The owner receives the agent's `decryption_key`, once, to read the agent's balances and amounts.
 */
@Injectable()
export class AgentAccountsService {
  constructor(private readonly commands: CommandBus) {}

  create(caller: Caller, body: CreateAgentBody): Promise<Agent & { decryption_key: string }> {
    return withOneTimeKey(async (recipientKey, open) => {
      const created = unwrap(
        await this.commands.send(
          CreateAccount,
          {
            kind: 'agent',
            owner_account_id: caller.principal.account_id,
            name: body.name,
            spend_policy: body.spend_policy,
            recipient_key: recipientKey,
          },
          caller.context,
        ),
      );
      if (!created.agent) {
        throw new Error('account-service created an agent account without its agent');
      }
      return { ...created.agent, decryption_key: open(created.encrypted_decryption_key) };
    });
  }

  /**
   * The caller's agents as seen from its key's environment. An agent created before agent-policy-service
   * kept both addresses lacks one: account-service, which always kept both, answers for it.
   */
  async list(caller: Caller): Promise<{ agents: Agent[] }> {
    const { account_id, environment } = caller.principal;
    const { agents } = unwrap(
      await this.commands.send(ListAgents, { owner_account_id: account_id, environment }, caller.context),
    );
    return {
      agents: await Promise.all(
        agents.map(async (agent) => ({
          ...agent,
          public_key: agent.public_key ?? (await this.addressOf(agent.account_id, caller)),
        })),
      ),
    };
  }

  private async addressOf(accountId: string, caller: Caller): Promise<string> {
    const { environment } = caller.principal;
    const account = unwrap(
      await this.commands.send(GetAccount, { account_id: accountId, environment }, caller.context),
    );
    if (account.public_key === null) {
      throw new DomainError('service_unavailable', 'The agent has no ledger account in this environment yet');
    }
    return account.public_key;
  }
}
