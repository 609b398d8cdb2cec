import { Injectable } from '@nestjs/common';
import {
  type AccountParty,
  type Environment,
  type Envelope,
  fail,
  ok,
  type RequestOf,
  ResolveParties,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import {
  type AccountState,
  effectiveKycStatus,
  parseRecipient,
  type RecipientReference,
} from './account.domain';
import { AccountRepository } from './account.repository';

type Resolution = ResponseOf<typeof ResolveParties>;

/** Who is who for a transfer: the sender, and the recipient named by handle, domain or address. */
@Injectable()
export class ResolvePartiesHandlers {
  constructor(private readonly accounts: AccountRepository) {}

  @OnCommand(ResolveParties)
  async resolve(message: Envelope<RequestOf<typeof ResolveParties>>): Promise<Result<Resolution>> {
    const { sender_account_id, to, environment } = message.payload;
    const reference = parseRecipient(to);
    // The common case, a transfer to a handle, reads both accounts in one round trip.
    const both =
      reference.kind === 'handle'
        ? await this.accounts.findByIdAndHandle(sender_account_id, reference.handle)
        : { byId: await this.accounts.findById(sender_account_id), byHandle: null };
    const sender = both.byId;
    if (!sender) {
      return fail('account_not_found', 'No such account');
    }
    const senderParty = await this.partyOf(sender, environment);
    if (!senderParty) {
      return fail('service_unavailable', 'The account has no ledger account in this environment yet');
    }
    const recipient =
      reference.kind === 'handle'
        ? both.byHandle
          ? { kind: 'account' as const, account: both.byHandle }
          : { kind: 'missing' as const }
        : await this.findRecipient(reference, environment);
    if (recipient.kind === 'invalid') {
      return fail('invalid_request', '`to` must be an @handle, a verified domain or an address', {
        param: 'to',
      });
    }
    if (recipient.kind === 'missing') {
      return fail('recipient_not_found', `No account for ${to}`, { param: 'to' });
    }
    if (recipient.kind === 'external') {
      return ok({ sender: senderParty, recipient: { kind: 'external', address: recipient.address } });
    }
    const recipientParty = await this.partyOf(recipient.account, environment);
    if (!recipientParty) {
      return fail('recipient_not_found', `${to} has no account on this ledger`, { param: 'to' });
    }
    return ok({ sender: senderParty, recipient: { kind: 'account', ...recipientParty } });
  }

  private async findRecipient(
    reference: RecipientReference,
    environment: Environment,
  ): Promise<
    | { kind: 'account'; account: AccountState }
    | { kind: 'external'; address: string }
    | { kind: 'missing' }
    | { kind: 'invalid' }
  > {
    switch (reference.kind) {
      case 'invalid':
        return reference;
      case 'handle': {
        const account = await this.accounts.findByHandle(reference.handle);
        return account ? { kind: 'account', account } : { kind: 'missing' };
      }
      case 'domain': {
        const domain = await this.accounts.findDomain(reference.domain);
        const account = domain ? await this.accounts.findById(domain.accountId) : null;
        return account ? { kind: 'account', account } : { kind: 'missing' };
      }
      case 'address': {
        const account = await this.accounts.findByAddress(reference.address, environment);
        return account ? { kind: 'account', account } : { kind: 'external', address: reference.address };
      }
    }
  }

  private async partyOf(account: AccountState, environment: Environment): Promise<AccountParty | null> {
    const address = account.addresses[environment];
    if (!address) {
      return null;
    }
    const owner = account.ownerAccountId ? await this.accounts.findById(account.ownerAccountId) : null;
    return {
      account_id: account.id,
      handle: account.handle,
      type: account.type,
      kyc_status: effectiveKycStatus(account, owner),
      address,
      owner: owner ? { account_id: owner.id, handle: owner.handle } : null,
    };
  }
}
