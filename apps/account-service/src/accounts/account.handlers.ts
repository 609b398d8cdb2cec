import { Inject, Injectable } from '@nestjs/common';
import {
  AccountKycChanged,
  AddVerifiedDomain,
  contextFrom,
  DomainError,
  type Envelope,
  fail,
  GetAccount,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
  SetKycStatus,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { UnitOfWork } from '@cts/persistence';
import { canVerifyDomain, effectiveKycStatus, kycChangeRefusal, toAccountResource } from './account.domain';
import { AccountRepository } from './account.repository';

@Injectable()
export class AccountHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

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
    // Once per command: a redelivered one gets the first reply, not a second account.kyc_changed.
    const { value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
      // Locked: concurrent changes to one status would each read the old one and each publish.
      const current = await this.accounts.lockById(account_id, tx.manager);
      if (!current) {
        return fail('account_not_found', 'No such account');
      }
      const refusal = kycChangeRefusal(current);
      if (refusal) {
        return refusal;
      }
      if (current.kycStatus === kyc_status) {
        // Nothing changed: no account.kyc_changed for its consumers to act on.
        return ok(toAccountResource(current, null));
      }
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
    return value;
  }

  @OnCommand(AddVerifiedDomain)
  async addDomain(
    message: Envelope<RequestOf<typeof AddVerifiedDomain>>,
  ): Promise<Result<ResponseOf<typeof AddVerifiedDomain>>> {
    const { account_id, domain } = message.payload;
    return this.unitOfWork.run(async (tx) => {
      const account = await this.accounts.findById(account_id, tx.manager);
      if (!account) {
        return fail('account_not_found', 'No such account');
      }
      if (!canVerifyDomain(account.type)) {
        throw new DomainError('invalid_request', 'Only business accounts can verify a domain', {
          param: 'account_id',
        });
      }
      const row = await this.accounts.claimDomain(account_id, domain, tx.manager);
      if (row.accountId !== account_id) {
        return fail('domain_taken', `${domain} is verified by another account`, { param: 'domain' });
      }
      return ok({ account_id, domain, verified_at: row.verifiedAt.toISOString() });
    });
  }
}
