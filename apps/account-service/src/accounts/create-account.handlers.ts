import { Inject, Injectable } from '@nestjs/common';
import {
  AccountCreated,
  contextFrom,
  CreateAccount,
  CreateAgent,
  type Envelope,
  fail,
  type KycStatus,
  type MessageContext,
  newId,
  ok,
  ProvisionLedgerAccount,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { CommandBus, OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { isUniqueViolation, UnitOfWork } from '@cts/persistence';
import { toApiKeyResource } from '../api-keys/api-key.domain';
import { ApiKeyRepository } from '../api-keys/api-key.repository';
import { agentHandle, agentOwnerRefusal, type AccountState, toAccountResource } from './account.domain';
import { AccountRepository } from './account.repository';

type Request = RequestOf<typeof CreateAccount>;
type Created = ResponseOf<typeof CreateAccount>;
type Provisioned = ResponseOf<typeof ProvisionLedgerAccount>;

/** What the account row gets once the ledger half (and, for an agent, its policy) exists. */
interface NewAccount {
  accountId: string;
  handle: string;
  type: 'personal' | 'business' | 'agent';
  kycStatus: KycStatus;
  ownerAccountId: string | null;
  apiKeys: Extract<Request, { kind: 'account' }>['api_keys'];
}

/**
 * Opening an account (issue 18: one command, this service orchestrates). Custody keys and ledger
 * accounts first (transfer-service), then for an agent its policy (agent-policy-service), then the
 * account row, its keys and `account.created` in one transaction with the inbox. A handle found taken
 * at the last step leaves unused custody keys behind, never an account without a ledger. A redelivered
 * command that was already recorded gets the first reply without provisioning again.
 */
@Injectable()
export class CreateAccountHandlers {
  constructor(
    private readonly commands: CommandBus,
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly apiKeys: ApiKeyRepository,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

  @OnCommand(CreateAccount)
  async create(message: Envelope<Request>): Promise<Result<Created>> {
    const recorded = await this.unitOfWork.recordedReply<Result<Created>>(message, this.consumer);
    if (recorded !== undefined) {
      return recorded;
    }
    const request = message.payload;
    // An agent's owner is checked before anything is provisioned for it.
    const owner = request.kind === 'agent' ? await this.accounts.findById(request.owner_account_id) : null;
    if (request.kind === 'agent') {
      const refusal = owner ? agentOwnerRefusal(owner) : fail('account_not_found', 'No such account');
      if (refusal) {
        return refusal;
      }
    }
    const context = contextFrom(message);
    const accountId = newId('acct');
    const provisioned = await this.commands.send(
      ProvisionLedgerAccount,
      { account_id: accountId, recipient_key: request.recipient_key },
      { ...context, accountId },
    );
    if (!provisioned.ok) {
      return provisioned;
    }
    if (request.kind === 'account') {
      return this.record(message, provisioned.value, null, {
        accountId,
        handle: request.handle,
        type: request.type,
        kycStatus: request.kyc_status,
        ownerAccountId: null,
        apiKeys: request.api_keys,
      });
    }
    if (!owner) {
      return fail('account_not_found', 'No such account');
    }
    return this.createAgent(message, request, owner, accountId, provisioned.value, context);
  }

  private async createAgent(
    message: Envelope<Request>,
    request: Extract<Request, { kind: 'agent' }>,
    owner: AccountState,
    accountId: string,
    provisioned: Provisioned,
    context: MessageContext,
  ): Promise<Result<Created>> {
    const handle = agentHandle(owner.handle, request.name);
    const { test, live } = provisioned.addresses;
    if (!test || !live) {
      return fail('internal_error', 'transfer-service did not provision both ledgers');
    }
    const agent = await this.commands.send(
      CreateAgent,
      {
        owner: { account_id: owner.id, handle: owner.handle, type: owner.type },
        agent_account_id: accountId,
        name: request.name,
        handle,
        addresses: { test, live },
        spend_policy: request.spend_policy,
      },
      context,
    );
    if (!agent.ok) {
      return agent;
    }
    return this.record(message, provisioned, agent.value, {
      accountId,
      handle,
      type: 'agent',
      // Never read for an agent (its KYC is its owner's current one, effectiveKycStatus): a record of
      // the owner's at creation, shown in the creation reply and account.created.
      kycStatus: owner.kycStatus,
      ownerAccountId: owner.id,
      apiKeys: [],
    });
  }

  private async record(
    message: Envelope<Request>,
    provisioned: Provisioned,
    agent: Created['agent'],
    account: NewAccount,
  ): Promise<Result<Created>> {
    const taken = () => fail('handle_taken', `${account.handle} is already taken`, { param: 'handle' });
    try {
      const { value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
        if (await this.accounts.handleExists(account.handle, tx.manager)) {
          return taken();
        }
        const row = await this.accounts.insert(
          {
            id: account.accountId,
            handle: account.handle,
            type: account.type,
            kycStatus: account.kycStatus,
            ownerAccountId: account.ownerAccountId,
            addresses: { test: provisioned.addresses.test ?? null, live: provisioned.addresses.live ?? null },
          },
          tx.manager,
        );
        const keys = [];
        for (const key of account.apiKeys) {
          keys.push(await this.apiKeys.insert({ id: newId('key'), accountId: row.id, ...key }, tx.manager));
        }
        const resource = toAccountResource(row, null);
        const { public_key: _address, ...created } = resource;
        // On whose behalf: the caller's account (an agent's owner), else the new account (an operator's).
        await tx.emit(
          AccountCreated,
          row.id,
          { ...created, owner_account_id: row.ownerAccountId },
          { ...contextFrom(message), accountId: message.account_id ?? row.id },
        );
        return ok({
          account: resource,
          api_keys: keys.map(toApiKeyResource),
          encrypted_decryption_key: provisioned.encrypted_decryption_key,
          agent,
        });
      });
      return value;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return taken();
      }
      throw error;
    }
  }
}
