import { Module } from '@nestjs/common';
import { ApiKeyHandlers } from '../api-keys/api-key.handlers';
import { ApiKeyRepository } from '../api-keys/api-key.repository';
import { AccountHandlers } from './account.handlers';
import { AccountRepository } from './account.repository';
import { CreateAccountHandlers } from './create-account.handlers';
import { ResolvePartiesHandlers } from './resolve-parties.handlers';

@Module({
  providers: [
    AccountRepository,
    ApiKeyRepository,
    AccountHandlers,
    CreateAccountHandlers,
    ApiKeyHandlers,
    ResolvePartiesHandlers,
  ],
})
export class AccountsModule {}
