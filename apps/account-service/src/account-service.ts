import { type Runtime, type ServiceDefinition, startService } from '@cts/runtime';
import { AccountEntity, VerifiedDomainEntity } from './accounts/account.entity';
import { AccountsModule } from './accounts/accounts.module';
import { ApiKeyEntity } from './api-keys/api-key.entity';
import { migrations } from './migrations';

export const accountService: ServiceDefinition = {
  name: 'account-service',
  schema: 'accounts',
  entities: [AccountEntity, VerifiedDomainEntity, ApiKeyEntity],
  migrations,
  imports: [AccountsModule],
  // Opening an account asks transfer-service and agent-policy-service for their halves.
  sendsCommands: true,
};

export const start = (runtime: Runtime) => startService(accountService, runtime);
