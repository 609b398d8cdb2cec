import { Injectable } from '@nestjs/common';
import { type Agent, CreateAccount, CreateAgent, DomainError, GetAccount, ListAgents } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { AccountProvisioning } from '../accounts/account-provisioning';
import { type Caller } from '../http/request-context';
import { unwrap } from '../http/result';
import { type CreateAgentBody } from './agents.schemas';

/**
 * Creating an agent goes through the same path as any account (ledger accounts and custody first),
 * then the agent and its policy (agent-policy-service validates it and the name), then the account
 * itself. The agent gets no API key here: its owner provisions them (`POST /v1/agents/{id}/api-keys`).
 * The owner receives the agent's `decryption_key`, once, to read the agent's balances and amounts.
 */
@Injectable()
export class AgentAccountsService {
  constructor(
    private readonly commands: CommandBus,
    private readonly provisioning: AccountProvisioning,
  ) {}

  async create(caller: Caller, body: CreateAgentBody): Promise<Agent & { decryption_key: string }> {
    const { account_id, environment } = caller.principal;
    const owner = unwrap(await this.commands.send(GetAccount, { account_id, environment }, caller.context));
    if (owner.type === 'agent') {
      throw new DomainError(
        'forbidden',
        'An agent cannot create agents: only personal and business accounts own agents',
      );
    }
    const provisioned = await this.provisioning.provision(caller.context);
    const handle = `${owner.handle}/${body.name}`;
    const agent = unwrap(
      await this.commands.send(
        CreateAgent,
        {
          owner: { account_id, handle: owner.handle, type: owner.type },
          agent_account_id: provisioned.accountId,
          name: body.name,
          handle,
          addresses: provisioned.addresses,
          spend_policy: body.spend_policy,
        },
        caller.context,
      ),
    );
    unwrap(
      await this.commands.send(
        CreateAccount,
        {
          account_id: provisioned.accountId,
          handle,
          type: 'agent',
          // The agent acts under its owner's identity checks.
          kyc_status: owner.kyc_status,
          owner_account_id: account_id,
          addresses: provisioned.addresses,
          api_keys: [],
        },
        caller.context,
      ),
    );
    return { ...agent, decryption_key: provisioned.decryptionKey };
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
