import { Body, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type Account, AddVerifiedDomain, SetKycStatus } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { type Request } from 'express';
import { AccountSchema } from '../accounts/accounts.schemas';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { type ApiKeyWithSecret, ApiKeyWithSecretSchema } from '../api-keys/api-keys.schemas';
import { AdminController, ApiErrors } from '../http/endpoint.decorators';
import { adminContextOf } from '../http/request-context';
import { unwrap } from '../http/result';
import { AdminAccountsService } from './admin-accounts.service';
import {
  AccountIdParam,
  AddDomainBody,
  CreateAccountBody,
  CreatedAccountSchema,
  type CreatedAccount,
  CreateKeyBody,
  SetKycBody,
  VerifiedDomainSchema,
} from './admin.schemas';

/** Operators' API (ARCHITECTURE §6a), used by the `cts` CLI. */
@AdminController('accounts')
export class AdminAccountsController {
  constructor(
    private readonly accounts: AdminAccountsService,
    private readonly apiKeys: ApiKeysService,
    private readonly commands: CommandBus,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an account with a test and a live API key' })
  @ApiCreatedResponse({ description: 'The account and its two keys', standardSchema: CreatedAccountSchema })
  @ApiErrors([409, 'handle_taken'])
  create(
    @Req() req: Request,
    @Body({ schema: CreateAccountBody }) body: CreateAccountBody,
  ): Promise<CreatedAccount> {
    return this.accounts.create(body, adminContextOf(req, null));
  }

  @Patch(':account_id')
  @ApiOperation({
    summary: "Set an account's KYC status; an agent has none of its own (its KYC is its owner's current one)",
  })
  @ApiOkResponse({ description: 'The updated account', standardSchema: AccountSchema })
  @ApiErrors([400, "invalid_request (an agent: set its owner's KYC)"], [404, 'account_not_found'])
  async setKyc(
    @Req() req: Request,
    @Param('account_id', { schema: AccountIdParam }) accountId: string,
    @Body({ schema: SetKycBody }) body: SetKycBody,
  ): Promise<Account> {
    const payload = { account_id: accountId, kyc_status: body.kyc_status };
    return unwrap(await this.commands.send(SetKycStatus, payload, adminContextOf(req, accountId)));
  }

  @Post(':account_id/api-keys')
  @ApiOperation({ summary: 'Create another API key for an account' })
  @ApiCreatedResponse({ description: 'The new key with its secret', standardSchema: ApiKeyWithSecretSchema })
  @ApiErrors([404, 'account_not_found'])
  createApiKey(
    @Req() req: Request,
    @Param('account_id', { schema: AccountIdParam }) accountId: string,
    @Body({ schema: CreateKeyBody }) body: CreateKeyBody,
  ): Promise<ApiKeyWithSecret> {
    return this.apiKeys.create(accountId, body.name, body.environment, null, adminContextOf(req, accountId));
  }

  @Post(':account_id/domains')
  @ApiOperation({ summary: 'Record a verified domain of a business account' })
  @ApiCreatedResponse({ description: 'The verified domain', standardSchema: VerifiedDomainSchema })
  @ApiErrors([404, 'account_not_found'], [409, 'domain_taken'])
  async addDomain(
    @Req() req: Request,
    @Param('account_id', { schema: AccountIdParam }) accountId: string,
    @Body({ schema: AddDomainBody }) body: AddDomainBody,
  ) {
    const payload = { account_id: accountId, domain: body.domain };
    return unwrap(await this.commands.send(AddVerifiedDomain, payload, adminContextOf(req, accountId)));
  }
}
