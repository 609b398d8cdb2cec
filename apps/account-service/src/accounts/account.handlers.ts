import { Inject, Injectable } from '@nestjs/common';
import {
  AccountCreated,
  AccountKycChanged,
  AddVerifiedDomain,
  contextFrom,
  CreateAccount,
  DomainError,
  type Envelope,
  fail,
  GetAccount,
  newId,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
  SetKycStatus,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { UnitOfWork } from '@cts/persistence';
import { SERVICE_NAME } from '@cts/platform';
import { ApiKeyRepository } from '../api-keys/api-key.repository';
import { toApiKeyResource } from '../api-keys/api-key.domain';
import { isUniqueViolation } from '@cts/persistence';
import { canVerifyDomain, effectiveKycStatus, toAccountResource } from './account.domain';
import { AccountRepository } from './account.repository';

@Injectable()
export class AccountHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly apiKeys: ApiKeyRepository,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

  @OnCommand(CreateAccount)
  async create(
    message: Envelope<RequestOf<typeof CreateAccount>>,
  ): Promise<Result<ResponseOf<typeof CreateAccount>>> {
    const request = message.payload;
    try {
      const { value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
        if (await this.accounts.handleExists(request.handle, tx.manager)) {
          return fail('handle_taken', `${request.handle} is already taken`, { param: 'handle' });
        }
        const account = await this.accounts.insert(
          {
            id: request.account_id,
            handle: request.handle,
            type: request.type,
            kycStatus: request.kyc_status,
            ownerAccountId: request.owner_account_id,
            addresses: { test: request.addresses.test ?? null, live: request.addresses.live ?? null },
          },
          tx.manager,
        );
        const keys = [];
        for (const key of request.api_keys) {
          keys.push(
            await this.apiKeys.insert({ id: newId('key'), accountId: account.id, ...key }, tx.manager),
          );
        }
        const resource = toAccountResource(account, null);
        const { public_key: _address, ...created } = resource;
        await tx.emit(
          AccountCreated,
          account.id,
          { ...created, owner_account_id: account.ownerAccountId },
          contextFrom(message),
        );
        return ok({ account: resource, api_keys: keys.map(toApiKeyResource) });
      });
      return value;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return fail('handle_taken', `${request.handle} is already taken`, { param: 'handle' });
      }
      throw error;
    }
  }

  @OnCommand(GetAccount)
  async get(message: Envelope<RequestOf<typeof GetAccount>>): Promise<Result<ResponseOf<typeof GetAccount>>> {
    const account = await this.accounts.findById(message.payload.account_id);
    if (!account) {
      return fail('account_not_found', 'No such account');
    }
    const owner = account.ownerAccountId ? await this.accounts.findById(account.ownerAccountId) : null;
    return ok({
      ...toAccountResource(account, message.payload.environment),
      kyc_status: effectiveKycStatus(account, owner),
    });
  }

  @OnCommand(SetKycStatus)
  async setKyc(
    message: Envelope<RequestOf<typeof SetKycStatus>>,
  ): Promise<Result<ResponseOf<typeof SetKycStatus>>> {
    const { account_id, kyc_status } = message.payload;
    return this.unitOfWork.run(async (tx) => {
      const account = await this.accounts.setKycStatus(account_id, kyc_status, tx.manager);
      if (!account) {
        return fail('account_not_found', 'No such account');
      }
      await tx.emit(
        AccountKycChanged,
        account_id,
        { account_id, kyc_status, changed_at: new Date().toISOString() },
        contextFrom(message),
      );
      return ok(toAccountResource(account, null));
    });
  }

  @OnCommand(AddVerifiedDomain)
  async addDomain(
    message: Envelope<RequestOf<typeof AddVerifiedDomain>>,
  ): Promise<Result<ResponseOf<typeof AddVerifiedDomain>>> {
    const { account_id, domain } = message.payload;
    try {
      return await this.unitOfWork.run(async (tx) => {
        const account = await this.accounts.findById(account_id, tx.manager);
        if (!account) {
          return fail('account_not_found', 'No such account');
        }
        if (!canVerifyDomain(account.type)) {
          throw new DomainError('invalid_request', 'Only business accounts can verify a domain', {
            param: 'account_id',
          });
        }
        const existing = await this.accounts.findDomain(domain, tx.manager);
        if (existing && existing.accountId !== account_id) {
          return fail('domain_taken', `${domain} is verified by another account`, { param: 'domain' });
        }
        const row = existing ?? (await this.accounts.insertDomain(account_id, domain, tx.manager));
        return ok({ account_id, domain, verified_at: row.verifiedAt.toISOString() });
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        return fail('domain_taken', `${domain} is verified by another account`, { param: 'domain' });
      }
      throw error;
    }
  }
}
