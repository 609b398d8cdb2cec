import { Module } from '@nestjs/common';
import { ApiKeyHandlers } from '../api-keys/api-key.handlers';
import { ApiKeyRepository } from '../api-keys/api-key.repository';
import { AccountHandlers } from './account.handlers';
import { AccountRepository } from './account.repository';
import { ResolvePartiesHandlers } from './resolve-parties.handlers';

@Module({
  providers: [AccountRepository, ApiKeyRepository, AccountHandlers, ApiKeyHandlers, ResolvePartiesHandlers],
})
export class AccountsModule {}
